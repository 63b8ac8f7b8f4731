import type { JsonSchema, OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { pathArgumentOf, type OperationRoute } from '../routes/route-table';

/** The catalog's params schema without the argument the path carries. */
export function argumentsSchema(route: OperationRoute, spec: OperationSpec): JsonSchema {
  const inPath = pathArgumentOf(route);
  if (!inPath) return spec.params;
  const { [inPath]: _inPath, ...properties } = spec.params.properties as Record<string, JsonSchema>;
  const required = ((spec.params.required as string[] | undefined) ?? []).filter((n) => n !== inPath);
  const { required: _all, ...rest } = spec.params;
  return required.length ? { ...rest, properties, required } : { ...rest, properties };
}
