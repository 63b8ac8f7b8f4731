import { CATALOG } from '../catalog/catalog';
import { publishOperationSchema } from '../publish/operation-schemas';

/**
 * query/catalog: the read operations (queries) this session serves, as descriptors: nothing a query
 * does is restated beyond the catalog's own words and schemas. Writes, and writes with a read part,
 * are not queries.
 */
export function queryCatalog(served: (name: string) => boolean): Record<string, unknown>[] {
  return CATALOG.filter((op) => op.readOnly && served(op.name))
    .map((op) => ({
      name: op.name,
      title: op.title,
      description: op.description,
      params: op.params,
      result_schema: publishOperationSchema(op, 'result').$id,
      errors: op.errors,
    }))
    .sort((a, b) => (a.name < b.name ? -1 : a.name > b.name ? 1 : 0));
}
