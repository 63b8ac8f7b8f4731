import { CATALOG } from '../catalog/catalog';
import type { JsonSchema, OperationSpec } from '../catalog/operation-spec';
import { schemaToType } from './typescript-client';

export const OPERATION_TYPES_PATH = 'libs/protocol/src/catalog/operation-types.generated.ts';

/**
 * What a handler receives once admission let the call through: the whole params type for a
 * schema-admitted operation; for an audited one only the edge fields are checked (everything else is
 * the decider's to judge and record), so every other field is `unknown`.
 */
function admittedSchema(op: OperationSpec): string {
  if (op.admission === 'schema') return schemaToType(op.params, '  ');
  const props = (op.params.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((op.params.required as string[] | undefined) ?? []);
  const edge = new Set(op.edgeFields ?? []);
  const fields = Object.entries(props).map(([name, schema]) =>
    edge.has(name) ? `    ${name}${required.has(name) ? '' : '?'}: ${schemaToType(schema, '    ')};` : `    ${name}?: unknown;`,
  );
  return `{\n${fields.join('\n')}\n  }`;
}

/** The params and result types of every operation, generated from the catalog's schemas. */
export function renderOperationTypes(): string {
  const out = [
    '// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.',
    '// Params<N>, Admitted<N> and Result<N> (operation-types.ts) index these by operation name.',
    '',
    '/** The arguments a caller sends, as the params schema describes them. */',
    'export interface OperationParams {',
  ];
  for (const op of CATALOG) out.push(`  ${op.name}: ${schemaToType(op.params, '  ')};`);
  out.push('}', '', '/** The arguments a handler receives after admission. */', 'export interface OperationAdmitted {');
  for (const op of CATALOG) out.push(`  ${op.name}: ${admittedSchema(op)};`);
  out.push('}', '', '/** The answers, as the result schema describes them (status first, the rest per status). */', 'export interface OperationResults {');
  for (const op of CATALOG) out.push(`  ${op.name}: ${schemaToType(op.result, '  ', true)};`);
  out.push('}', '');
  return out.join('\n');
}
