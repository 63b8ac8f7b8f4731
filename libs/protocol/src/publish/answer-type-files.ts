import { ANSWER_SCHEMAS } from '../catalog/answer-schemas';
import { CATALOG, type OperationName } from '../catalog/catalog';
import type { JsonSchema } from '../catalog/operation-spec';
import { sharedSchemaNames } from './shared-schema-names';
import { schemaToType } from './schema-to-type';

/**
 * Lines a generated module of answer types may hold: under the 450-line cap with room for an operation
 * added before the next `generate` packs the modules again.
 */
export const MODULE_LINES = 360;

/** palimpsest_submit_edits → SubmitEdits; edit_file → EditFile. */
export const pascal = (name: string): string =>
  name.replace(/^palimpsest_/, '').replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase());

/** How the answer modules are named, and the header each starts with. */
export interface AnswerModuleNaming {
  header: string;
  /** The module holding the parts several answers share (no extension, no directory). */
  parts: string;
  /** The n-th module of operations' answers (1-based). */
  group: (n: number) => string;
}

/** The answer types as modules: the shared parts, then operations' answers packed in catalog order. */
export interface AnswerModules {
  /** Module name (no extension) → its text. */
  files: Map<string, string>;
  /** Each operation's answer type, and the module that declares it. */
  types: Map<OperationName, { name: string; module: string }>;
  /** Module names in order: the parts first. */
  modules: string[];
}

/**
 * Each operation's success answer as a named type (`SubmitEditsAnswer`), generated from ANSWER_SCHEMAS;
 * a part several answers share is declared once, in the parts module. The protocol's catalog types and
 * the standalone TypeScript client both take their answers from here, so the two cannot disagree.
 */
export function answerModules(naming: AnswerModuleNaming): AnswerModules {
  const roots = new Map(CATALOG.map((op) => [`${op.name.replace(/^palimpsest_/, '')}_answer`, ANSWER_SCHEMAS[op.name]]));
  const named = sharedSchemaNames(roots);
  const sharedNames = [...named.values()];
  const files = new Map<string, string>();
  files.set(naming.parts, partsModule(naming.header, named));

  const found = new Map<OperationName, { name: string; module: string }>();
  const blocks: { op: OperationName; name: string; lines: string[] }[] = [];
  for (const op of CATALOG) {
    const schema = ANSWER_SCHEMAS[op.name];
    const name = `${pascal(op.name)}Answer`;
    const shared = named.get(schema);
    if (shared === name) {
      found.set(op.name, { name, module: naming.parts });
      continue;
    }
    const doc = `/** What a success of ${op.name} carries. */`;
    blocks.push({ op: op.name, name, lines: [doc, `export type ${name} = ${schemaToType(schema, '', true, named)};`, ''] });
  }

  const groups: (typeof blocks)[] = [];
  let size = MODULE_LINES;
  for (const block of blocks) {
    const lines = block.lines.join('\n').split('\n').length;
    if (size + lines > MODULE_LINES) {
      groups.push([]);
      size = 6; // header, the import and blank lines
    }
    groups[groups.length - 1].push(block);
    size += lines;
  }
  const modules = [naming.parts];
  groups.forEach((group, i) => {
    const module = naming.group(i + 1);
    modules.push(module);
    const body = group.flatMap((b) => b.lines).join('\n');
    const used = sharedNames.filter((n) => new RegExp(`\\b${n}\\b`).test(body));
    const imports = used.length ? [`import type { ${used.join(', ')} } from './${naming.parts}';`, ''] : [];
    files.set(module, [naming.header, ...imports, body].join('\n'));
    for (const b of group) found.set(b.op, { name: b.name, module });
  });
  // The table lists the operations in catalog order, wherever each answer is declared.
  const types = new Map(CATALOG.flatMap((op) => {
    const type = found.get(op.name);
    return type ? [[op.name, type] as const] : [];
  }));
  return { files, types, modules };
}

function partsModule(header: string, named: ReadonlyMap<JsonSchema, string>): string {
  const lines = [header, ''];
  for (const [schema, name] of named) {
    const unnamed = new Map([...named].filter(([s]) => s !== schema));
    lines.push('/** A part several answers share. */', `export type ${name} = ${schemaToType(schema, '', true, unnamed)};`, '');
  }
  return lines.join('\n');
}

/**
 * The index of the answer modules: imports each operation's answer type, re-exports every module, and
 * declares `interfaceName`, the table from operation name to its success answer.
 */
export function answerIndex(answers: AnswerModules, interfaceName: string, doc: string): string[] {
  const byModule = new Map<string, string[]>();
  for (const { name, module } of answers.types.values()) {
    const names = byModule.get(module) ?? [];
    if (!names.includes(name)) names.push(name);
    byModule.set(module, names);
  }
  const lines: string[] = [];
  for (const module of answers.modules) {
    const names = byModule.get(module);
    if (names) lines.push(`import type { ${names.join(', ')} } from './${module}';`);
  }
  lines.push('');
  for (const module of answers.modules) lines.push(`export type * from './${module}';`);
  lines.push('', `/** ${doc} */`, `export interface ${interfaceName} {`);
  for (const [op, { name }] of answers.types) lines.push(`  ${op}: ${name};`);
  lines.push('}', '');
  return lines;
}
