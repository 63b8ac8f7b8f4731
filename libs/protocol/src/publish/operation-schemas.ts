import type { JsonSchema, OperationSpec } from '../catalog/operation-spec';
import { SCHEMA_BASE } from './event-schemas';

const DRAFT = 'https://json-schema.org/draft/2020-12/schema';

export function operationSchemaPath(op: OperationSpec, part: 'params' | 'result'): string {
  return `operations/${op.name}.${part}.v1.json`;
}

/** A catalog schema as a published document: $schema, $id and title added, content untouched. */
export function publishOperationSchema(op: OperationSpec, part: 'params' | 'result'): JsonSchema {
  const schema = part === 'params' ? op.params : op.result;
  return {
    $schema: DRAFT,
    $id: `${SCHEMA_BASE}/${operationSchemaPath(op, part)}`,
    title: `${op.name} ${part}`,
    description: part === 'params' ? op.description : `Result of ${op.name}; status selects the shape.`,
    ...schema,
  };
}
