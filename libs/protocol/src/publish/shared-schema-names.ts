import type { JsonSchema } from '../catalog/operation-spec';
import type { SchemaNames } from './schema-to-type';

const pascal = (key: string) => key.replace(/(^|_)([a-z0-9])/g, (_m, _u, c: string) => c.toUpperCase());

/**
 * The object schemas that stand in more than one place of `roots` (the same part, by identity, as
 * answer-schema-parts builds them), each named after the first property (or root key) that holds it, so a generated
 * file declares a shared part once instead of inlining it at every use.
 */
export function sharedSchemaNames(roots: ReadonlyMap<string, JsonSchema>): SchemaNames {
  const seen = new Map<JsonSchema, { uses: number; key: string }>();
  const visit = (schema: unknown, key: string): void => {
    if (typeof schema !== 'object' || schema === null) return;
    const s = schema as JsonSchema;
    if (s.properties) {
      const entry = seen.get(s);
      if (entry) return void (entry.uses += 1);
      seen.set(s, { uses: 1, key });
      for (const [name, child] of Object.entries(s.properties as Record<string, unknown>)) visit(child, name);
    }
    if (s.items) visit(s.items, `${key}_item`);
    for (const branch of (s.oneOf as unknown[] | undefined) ?? []) visit(branch, key);
  };
  for (const [key, root] of roots) visit(root, key);
  const names = new Map<JsonSchema, string>();
  const taken = new Set<string>();
  for (const [schema, { uses, key }] of seen) {
    if (uses < 2) continue;
    let name = pascal(key);
    for (let n = 2; taken.has(name); n++) name = `${pascal(key)}${n}`;
    taken.add(name);
    names.set(schema, name);
  }
  return names;
}
