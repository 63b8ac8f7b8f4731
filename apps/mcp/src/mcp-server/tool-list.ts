import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly, type JsonSchema, type OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { operationRefusal } from '@palimpsest/core/policy/policy-decisions';
import { advertisedSchema } from './advertised-schema';
import { compactNote, type ResponseMode } from './response-mode';
import { servedWithoutExecutors, withoutRelayArguments } from '@palimpsest/protocol/catalog/operations/projects.operations';

export type Profile = 'full' | 'read-only';

function describe(op: OperationSpec, mode: ResponseMode): string {
  const note = mode === 'compact' ? compactNote(op.name) : null;
  return note ? `${op.description} ${note}` : op.description;
}

/**
 * The result as tools/list advertises it: its required fields (status, which says what follows), the rest
 * left open. Each result's full schema is schemas/operations/<name>.result.v1.json; tools/list stays within
 * its budget whatever detail a result schema gains. A client validating structuredContent accepts every result.
 */
function outline(schema: JsonSchema): JsonSchema {
  const required = (schema.required ?? []) as string[];
  const properties = (schema.properties ?? {}) as Record<string, JsonSchema>;
  // The per-status shapes (if/then: the seed file tools' exact answers) stay in the published schemas.
  // Every answer has these fields; `required` would only repeat their names in each of ~30 tools.
  const { if: _if, then: _then, else: _else, required: _required, ...top } = schema;
  return structuredClone({ ...top, properties: Object.fromEntries(required.filter((name) => name in properties).map((name) => [name, properties[name]!])) });
}

/** A title that only restates the name in words ("Get target") is left out: clients show the name then. */
function titleAddsToName(op: OperationSpec): boolean {
  const words = (text: string) => text.toLowerCase().replace(/^palimpsest_/, '').replace(/[^a-z]+/g, ' ').trim();
  return words(op.title) !== words(op.name);
}

/**
 * tools/list, generated from the catalog; a read-only profile advertises read tools only, a policy only
 * its tools. Annotations say only what differs from MCP's defaults (a tool is not read-only and not
 * idempotent unless said; the destructive and idempotent hints mean nothing on a read-only one), and the
 * display name is the tool's title (MCP 2025-06-18), not repeated in annotations.
 */
export function listTools(profile: Profile, mode: ResponseMode, policy?: OwnerPolicy, executors = false): Tool[] {
  const visible = (op: OperationSpec) => (profile === 'full' || servedReadOnly(op)) && (!policy || operationRefusal(policy, { name: op.name, readOnly: servedReadOnly(op) }) === null) && (executors || servedWithoutExecutors(op.name));
  return CATALOG.filter(visible).map((op) => {
    const inputSchema: Record<string, unknown> = advertisedSchema(executors ? op.params : withoutRelayArguments(op.name, op.params));
    // One example a tool (one a form) teaches its shape; the rest are in the reference and the published schemas.
    // An operation that advertises none (advertisedExamples: 0) sends no empty list: it says nothing and costs bytes.
    const examples = op.examples.slice(0, op.advertisedExamples ?? 1).map((e) => e.params);
    if (examples.length) inputSchema.examples = structuredClone(examples);
    if (op.capabilities) inputSchema['x-palimpsest-capabilities'] = structuredClone(op.capabilities);
    return {
      name: op.name,
      ...(titleAddsToName(op) ? { title: op.title } : {}),
      description: describe(op, mode),
      inputSchema: inputSchema as Tool['inputSchema'],
      outputSchema: outline(op.result) as Tool['outputSchema'],
      annotations: op.readOnly ? { readOnlyHint: true } : { destructiveHint: false },
    };
  });
}
