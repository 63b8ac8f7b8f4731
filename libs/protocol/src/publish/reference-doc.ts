import { CATALOG } from '../catalog/catalog';
import type { JsonSchema } from '../catalog/operation-spec';

function typeOf(schema: JsonSchema): string {
  if ('const' in schema) return JSON.stringify(schema.const);
  if (Array.isArray(schema.enum)) return schema.enum.map((v) => JSON.stringify(v)).join(' \\| ');
  if (Array.isArray(schema.oneOf)) return 'object (one of several shapes)';
  if (Array.isArray(schema.type)) return schema.type.join(' \\| ');
  if (schema.type === 'array') return `array of ${typeOf((schema.items as JsonSchema) ?? {})}`;
  return String(schema.type ?? 'any');
}

const cell = (text: string) => text.replace(/\|/g, '\\|').replace(/\n/g, ' ');

/** docs/operations.md, generated from the catalog (npx palimpsest generate). */
export function renderReference(): string {
  const lines = [
    '# Operation reference',
    '',
    '<!-- Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand. -->',
    '',
    '| Operation | Access | Summary |',
    '|---|---|---|',
    ...CATALOG.map((op) => `| [\`${op.name}\`](#${op.name}) | ${op.readOnly ? 'read' : op.readOnlyPart ? 'write (partly read)' : 'write'} | ${cell(op.title)} |`),
  ];
  for (const op of CATALOG) {
    const props = (op.params.properties ?? {}) as Record<string, JsonSchema>;
    const required = new Set((op.params.required as string[] | undefined) ?? []);
    lines.push('', `## ${op.name}`, '', cell(op.description), '');
    const access = op.readOnly ? 'read-only' : op.readOnlyPart ? `write; the read-only profile serves ${op.readOnlyPart}` : 'write';
    lines.push(`Access: ${access}. Schemas: \`schemas/operations/${op.name}.params.json\`, \`schemas/operations/${op.name}.result.json\`.`, '');
    if (Object.keys(props).length) {
      lines.push('| Parameter | Type | Required | Description |', '|---|---|---|---|');
      for (const [name, schema] of Object.entries(props)) {
        lines.push(`| \`${name}\` | ${typeOf(schema)} | ${required.has(name) ? 'yes' : 'no'} | ${cell(String(schema.description ?? ''))} |`);
      }
      lines.push('');
    }
    if (op.errors.length) lines.push(`Errors and refusals: ${op.errors.map((e) => `\`${e}\``).join(', ')}.`, '');
    for (const ex of op.examples) {
      lines.push(`Example — ${ex.title}:`, '', '```json', JSON.stringify(ex.params), '```', '');
    }
  }
  return `${lines.join('\n').trimEnd()}\n`;
}
