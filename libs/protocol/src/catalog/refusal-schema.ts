import { CATALOG } from './catalog';
import type { JsonSchema } from './operation-spec';

/**
 * What a refusal carries (refusal.ts: CommonFields, RefusalDetails, the publication details and the
 * notes), as JSON Schema: the standalone client's Refusal type is generated from it, and an answer that
 * arrives as JSON (the CLI through a gateway) is checked against it before it is read as a Refusal.
 * Every property is optional but status; objects stay open, as the answer schemas do.
 */

const str: JsonSchema = { type: 'string' };
const int: JsonSchema = { type: 'integer' };
const bool: JsonSchema = { type: 'boolean' };
const strOrNull: JsonSchema = { type: ['string', 'null'] };
const intOrNull: JsonSchema = { type: ['integer', 'null'] };
const strings: JsonSchema = { type: 'array', items: str };
const ints: JsonSchema = { type: 'array', items: int };
const record: JsonSchema = { type: 'object' };
const object = (properties: Record<string, JsonSchema>, required: string[] = Object.keys(properties)): JsonSchema => ({ type: 'object', required, properties });

export const RETRYABLE_SCHEMA: JsonSchema = { enum: ['none', 'same_request', 'after_refresh'] };

/** A next action: an operation of the catalog and its complete arguments, as that operation's params schema admits them. */
export const NEXT_ACTION_SCHEMA: JsonSchema = {
  oneOf: CATALOG.map((op) => object({ operation: { const: op.name }, reason: str, params: op.params })),
};

const root: JsonSchema = object({ dev: { type: ['string', 'integer'] }, ino: { type: ['string', 'integer'] } });
const journal = object({ id: str, state: str });

/** The error envelope a candidate operation answers with (status "error"). */
const errorEnvelope = (nextActions: JsonSchema): JsonSchema =>
  object({ code: str, reason: str, message: str, retryable: RETRYABLE_SCHEMA, next_actions: nextActions, operation_index: int, target: record, details: record }, ['code', 'reason', 'message', 'retryable', 'next_actions']);

export const TRUNCATED_FIELDS_SCHEMA: JsonSchema = { type: 'array', items: object({ path: str, returned: int, total: int }) };

/** A refusal whose next actions are each `nextAction` (NEXT_ACTION_SCHEMA, or a reference to it). */
export const refusalSchema = (nextAction: JsonSchema): JsonSchema => {
  const nextActions: JsonSchema = { type: 'array', items: nextAction };
  return object(
    {
      status: str,
      code: str,
      failure_reason: str,
      failure_detail: str,
      retryable: RETRYABLE_SCHEMA,
      diagnostic: { type: ['object', 'null'] },
      next_actions: nextActions,
      error: errorEnvelope(nextActions),
      // Which argument, and what admission found wrong with the call.
      argument: str,
      tool: str,
      unknown_arguments: strings,
      missing_arguments: strings,
      errors: { type: 'array', items: object({ path: str, message: str }) },
      policy: strOrNull,
      detail: str,
      answer: str,
      // The limits and ranges an argument overstepped.
      range_length: int,
      total_lines: int,
      totalLines: int,
      total_chars: int,
      size: int,
      limit: int,
      budget_ms: int,
      limit_exceeded: str,
      actual: int,
      allowed_formats: strings,
      selection_index: intOrNull,
      // The target or file a refusal names, and the state it was refused against.
      target_file_id: strOrNull,
      path: str,
      component: int,
      current_version: int,
      current_hash: str,
      observation_id: strOrNull,
      bundle_id: strOrNull,
      observed_version: int,
      observed_hash: str,
      bound_root: root,
      configured_root: { ...root, properties: { ...(root.properties as object), path: str } },
      // A recorded rejection.
      attempt_id: strOrNull,
      approval_id: strOrNull,
      failed_change_id: strOrNull,
      before_hash: str,
      after_hash: { type: 'null' },
      log_sequence: intOrNull,
      current_context: record,
      deduplicated: bool,
      client_request_id: strOrNull,
      correlation_id: str,
      // A command tool's refusal, and edit_file's of an oldString found zero or several times.
      rule: str,
      runId: str,
      match_count: int,
      match_lines: ints,
      near_miss_lines: ints,
      near_misses: { type: 'array', items: object({ line: int, distance: int, text: str }) },
      preview: { const: true },
      advisory: { const: true },
      // A publication that installed the file but could not finish, or a recorded rejection of one.
      workspace_sync: { ...record, properties: { journal } },
      journal,
      snapshot_id: strOrNull,
      closed_editing_cycle_id: strOrNull,
      new_editing_cycle_id: strOrNull,
      validity: record,
      result_truncated: TRUNCATED_FIELDS_SCHEMA,
    },
    ['status'],
  );
};

export const REFUSAL_SCHEMA: JsonSchema = refusalSchema(NEXT_ACTION_SCHEMA);

/** The statuses a schema's `status` property admits (const or enum): a result's, or a success's. */
export function statusesOf(schema: JsonSchema): string[] {
  const status = ((schema.properties ?? {}) as Record<string, JsonSchema>).status ?? {};
  if ('const' in status) return [String(status.const)];
  return Array.isArray(status.enum) ? status.enum.map(String) : [];
}
