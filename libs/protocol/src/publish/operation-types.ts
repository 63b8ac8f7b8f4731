import { CATALOG, type OperationName } from '../catalog/catalog';
import type { JsonSchema, OperationSpec } from '../catalog/operation-spec';
import { answerIndex, answerModules, MODULE_LINES } from './answer-type-files';
import { schemaToType } from './schema-to-type';

const DIR = 'libs/protocol/src/catalog';
const HEADER = '// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.';

/**
 * What a handler receives once admission let the call through: the params type itself for a
 * schema-admitted operation; for an audited one only the edge fields are checked (everything else is
 * the decider's to judge and record), so every other field is `unknown`.
 */
function admittedType(op: OperationSpec): string {
  if (op.admission === 'schema') return `OperationParams['${op.name}']`;
  const props = (op.params.properties ?? {}) as Record<string, JsonSchema>;
  const required = new Set((op.params.required as string[] | undefined) ?? []);
  const edge = new Set(op.edgeFields ?? []);
  const fields = Object.entries(props).map(([name, schema]) =>
    edge.has(name) ? `    ${name}${required.has(name) ? '' : '?'}: ${schemaToType(schema, '    ')};` : `    ${name}?: unknown;`,
  );
  return `{\n${fields.join('\n')}\n  }`;
}

function table(name: string, doc: string, typeOf: (op: OperationSpec<OperationName>) => string, imports: string[] = []): string {
  const lines = [HEADER, ...imports, '', `/** ${doc} */`, `export interface ${name} {`];
  for (const op of CATALOG) lines.push(`  ${op.name}: ${typeOf(op)};`);
  return [...lines, '}', ''].join('\n');
}

/**
 * A table too long for one module: its operations packed in catalog order into part modules (each an
 * interface of its own), and the file itself the index that declares the table as their union.
 */
function splitTable(file: string, name: string, doc: string, typeOf: (op: OperationSpec<OperationName>) => string): [string, string][] {
  const parts: string[][] = [];
  let size = Infinity;
  for (const op of CATALOG) {
    const entry = `  ${op.name}: ${typeOf(op)};`;
    const lines = entry.split('\n').length;
    if (size + lines > MODULE_LINES) {
      parts.push([]);
      size = 5;
    }
    parts[parts.length - 1]!.push(entry);
    size += lines;
  }
  if (parts.length === 1) return [[`${DIR}/${file}.ts`, table(name, doc, typeOf)]];
  const module = (i: number) => `${file.replace(/\.generated$/, '')}-${i + 1}.generated`;
  const files = parts.map((entries, i): [string, string] => [
    `${DIR}/${module(i)}.ts`,
    [HEADER, '', `/** Part ${i + 1} of ${name} (see ${file}.ts). */`, `export interface ${name}Part${i + 1} {`, ...entries, '}', ''].join('\n'),
  ]);
  const index = [
    HEADER,
    ...parts.map((_, i) => `import type { ${name}Part${i + 1} } from './${module(i)}';`),
    '',
    `/** ${doc} */`,
    `export interface ${name} extends ${parts.map((_, i) => `${name}Part${i + 1}`).join(', ')} {}`,
    '',
  ].join('\n');
  return [...files, [`${DIR}/${file}.ts`, index]];
}

/** The params, admitted-arguments, result and answer types of every operation, one generated file each (operation-types.ts indexes them). */
export function operationTypeFiles(): Map<string, string> {
  return new Map([
    ...splitTable('operation-params.generated', 'OperationParams', 'The arguments a caller sends, as the params schema describes them.', (op) => schemaToType(op.params, '  ')),
    [
      `${DIR}/operation-admitted.generated.ts`,
      table('OperationAdmitted', 'The arguments a handler receives after admission.', admittedType, ["import type { OperationParams } from './operation-params.generated';"]),
    ],
    [
      `${DIR}/operation-results.generated.ts`,
      table('OperationResults', 'The answers, as the result schema describes them (status first, the rest per status).', (op) => schemaToType(op.result, '  ', true)),
    ],
    ...answerFiles(),
    ['libs/core/src/errors/operation-names.generated.ts', namesFile()],
  ]);
}

/**
 * OP: each operation's name as a typed constant, for code that names an operation (a next action, a
 * route, a policy list) without spelling it; and namespace OP of the same names as types (Result<OP.grep>).
 * It is written into libs/core, which every layer may import (the core names operations through
 * CatalogOperation, which the catalog declares).
 */
function namesFile(): string {
  const doc = 'Every operation name, typed: `OP.grep` in values, `OP.grep` in types. A renamed or removed operation fails the type check where it is named.';
  const values = CATALOG.map((op) => `  ${op.name}: '${op.name}',`);
  const types = CATALOG.map((op) => `  export type ${op.name} = '${op.name}';`);
  return [
    HEADER,
    "import type { CatalogOperation } from './error-model';",
    '',
    `/** ${doc} */`,
    'export const OP = {',
    ...values,
    '} as const satisfies { readonly [N in CatalogOperation]: N };',
    '',
    '/** The same names as types (declarations only: it merges with the constant). */',
    'export declare namespace OP {',
    ...types,
    '}',
    '',
  ].join('\n');
}

/** The answers' modules (the parts several answers share, the answers in groups) and their index, which declares the table. */
function answerFiles(): [string, string][] {
  const answers = answerModules({ header: HEADER, parts: 'operation-answer-parts.generated', group: (n) => `operation-answers-${n}.generated` });
  const doc = 'What each success carries, field by field, as ANSWER_SCHEMAS describes it (answer-schemas.ts).';
  const index = [HEADER, ...answerIndex(answers, 'OperationAnswers', doc)].join('\n');
  return [...[...answers.files].map(([module, text]): [string, string] => [`${DIR}/${module}.ts`, text]), [`${DIR}/operation-answers.generated.ts`, index]];
}
