import { operationSpec, type OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * The gateway's one route table: every catalog operation mapped to a method, a resource path and the
 * scope a bearer token needs, plus the few routes that are not catalog operations. Controllers bind
 * these entries; the OpenAPI document, the scope guard, the metrics labels and the README are all
 * read from here. Nothing in this file may import Nest: tests and the CLI load it directly.
 */

/** What a caller of the routes may do; a token with all of these and no owner policy is unrestricted (auth/unrestricted.ts). */
export const CALLER_SCOPES = ['read', 'write', 'operator', 'auditor'] as const;
/**
 * Every scope a token may carry: the callers' and `executor`, which opens no route and lets a machine
 * connect to /v1/executors/connect as an executor (docs/executors.md).
 */
export const SCOPES = [...CALLER_SCOPES, 'executor'] as const;
export type Scope = (typeof SCOPES)[number];
export type HttpMethod = 'GET' | 'POST';

export interface OperationRoute {
  operation: OperationName;
  method: HttpMethod;
  /** Route path; `:id` carries `pathArgument`. GET arguments come from the query, POST from a JSON body. */
  path: string;
  /** The argument `:id` stands for (default target_file_id). */
  pathArgument?: string;
  scope: Scope;
  /** Status of a successful answer (201 when the call creates a resource). */
  success: 200 | 201;
  /** Reads of a versioned resource: ETag is its version (target or candidate), If-None-Match answers 304. */
  etag?: boolean;
  /** What the README adds to the success status (a success that is not what it seems). */
  successNote?: string;
}

export const OPERATION_ROUTES: readonly OperationRoute[] = [
  { operation: OP.palimpsest_initialize_target, method: 'POST', path: '/v1/targets', scope: 'write', success: 201 },
  { operation: OP.palimpsest_handle_upload, method: 'POST', path: '/v1/uploads', scope: 'write', success: 201 },
  { operation: OP.palimpsest_get_target, method: 'GET', path: '/v1/targets/:id', scope: 'read', success: 200, etag: true },
  { operation: OP.palimpsest_export_target, method: 'GET', path: '/v1/targets/:id/export', scope: 'read', success: 200, etag: true },
  { operation: OP.palimpsest_read_target, method: 'GET', path: '/v1/targets/:id/text', scope: 'read', success: 200, etag: true },
  { operation: OP.palimpsest_read_lines, method: 'GET', path: '/v1/targets/:id/lines', scope: 'read', success: 200, etag: true },
  { operation: OP.palimpsest_find_occurrences, method: 'GET', path: '/v1/targets/:id/occurrences', scope: 'read', success: 200, etag: true },
  // read: discovery and paging record nothing; without the write scope a selection is refused (read-only profile).
  { operation: OP.palimpsest_observe_scope, method: 'POST', path: '/v1/targets/:id/scopes', scope: 'read', success: 200, successNote: 'ambiguous selections too' },
  { operation: OP.palimpsest_submit_edits, method: 'POST', path: '/v1/targets/:id/edits', scope: 'write', success: 200 },
  { operation: OP.palimpsest_submit_operations, method: 'POST', path: '/v1/targets/:id/operations', scope: 'write', success: 200 },
  { operation: OP.palimpsest_submit_observed_operations, method: 'POST', path: '/v1/targets/:id/observed-operations', scope: 'write', success: 200 },
  { operation: OP.palimpsest_submit_replacement, method: 'POST', path: '/v1/targets/:id/replacement', scope: 'write', success: 200 },
  { operation: OP.palimpsest_preview, method: 'POST', path: '/v1/targets/:id/previews', scope: 'read', success: 200, successNote: 'a rejected preview too' },
  { operation: OP.palimpsest_save, method: 'POST', path: '/v1/targets/:id/checkpoints', scope: 'write', success: 201 },
  { operation: OP.palimpsest_replay, method: 'POST', path: '/v1/targets/:id/replay', scope: 'auditor', success: 200, successNote: '`failed` is a report' },
  { operation: OP.palimpsest_get_attempt_log, method: 'GET', path: '/v1/targets/:id/attempts', scope: 'auditor', success: 200 },
  { operation: OP.palimpsest_get_manifest_ledger, method: 'GET', path: '/v1/targets/:id/ledger', scope: 'auditor', success: 200 },
  { operation: OP.palimpsest_capabilities, method: 'GET', path: '/v1/capabilities', scope: 'read', success: 200 },
  { operation: OP.palimpsest_workspace_refresh, method: 'POST', path: '/v1/targets/:id/workspace/refresh', scope: 'write', success: 200 },
  { operation: OP.palimpsest_workspace_status, method: 'GET', path: '/v1/workspace/files', scope: 'read', success: 200 },
  { operation: OP.grep, method: 'GET', path: '/v1/files/search', scope: 'read', success: 200 },
  { operation: OP.list_files, method: 'GET', path: '/v1/files', scope: 'read', success: 200 },
  { operation: OP.read_file, method: 'GET', path: '/v1/files/content', scope: 'read', success: 200 },
  { operation: OP.edit_file, method: 'POST', path: '/v1/files/edit', scope: 'write', success: 200 },
  { operation: OP.write_file, method: 'POST', path: '/v1/files/content', scope: 'write', success: 200 },
  { operation: OP.palimpsest_change_propose, method: 'POST', path: '/v1/candidates', scope: 'write', success: 200 },
  { operation: OP.palimpsest_edit_plan, method: 'POST', path: '/v1/plans', scope: 'read', success: 200 },
  { operation: OP.palimpsest_change_inspect, method: 'GET', path: '/v1/candidates/:id', pathArgument: 'candidate', scope: 'read', success: 200, etag: true },
  { operation: OP.palimpsest_check_run, method: 'POST', path: '/v1/candidates/:id/checks', pathArgument: 'candidate', scope: 'write', success: 200 },
  { operation: OP.palimpsest_change_apply, method: 'POST', path: '/v1/candidates/:id/apply', pathArgument: 'candidate', scope: 'write', success: 200 },
  { operation: OP.palimpsest_change_discard, method: 'POST', path: '/v1/candidates/:id/discard', pathArgument: 'candidate', scope: 'write', success: 200 },
  { operation: OP.palimpsest_search_targets, method: 'GET', path: '/v1/search', scope: 'read', success: 200 },
  { operation: OP.palimpsest_get_target_activity, method: 'GET', path: '/v1/activity', scope: 'read', success: 200 },
  { operation: OP.palimpsest_changes_since, method: 'GET', path: '/v1/changes', scope: 'read', success: 200 },
  { operation: OP.palimpsest_relocate_range, method: 'GET', path: '/v1/relocate', scope: 'read', success: 200 },
  { operation: OP.palimpsest_undo_attempt, method: 'POST', path: '/v1/targets/:id/undo', scope: 'write', success: 200 },
  { operation: OP.palimpsest_undo_edit, method: 'POST', path: '/v1/files/undo', scope: 'write', success: 200 },
  { operation: OP.palimpsest_diff_versions, method: 'POST', path: '/v1/targets/:id/diffs', scope: 'read', success: 200 },
  { operation: OP.palimpsest_file_history, method: 'GET', path: '/v1/files/history', scope: 'read', success: 200 },
  { operation: OP.palimpsest_workspace_as_of, method: 'POST', path: '/v1/workspace/as-of', scope: 'read', success: 200 },
  { operation: OP.palimpsest_prove_event, method: 'GET', path: '/v1/audit/events/:id/proof', pathArgument: 'global_position', scope: 'auditor', success: 200 },
  { operation: OP.palimpsest_prove_consistency, method: 'GET', path: '/v1/audit/consistency', scope: 'auditor', success: 200 },
  { operation: OP.palimpsest_node_find, method: 'POST', path: '/v1/code/nodes/find', scope: 'read', success: 200 },
  { operation: OP.palimpsest_node_get, method: 'POST', path: '/v1/code/nodes/get', scope: 'read', success: 200 },
  { operation: OP.palimpsest_graph_query, method: 'POST', path: '/v1/code/graph', scope: 'read', success: 200 },
  { operation: OP.palimpsest_context_build, method: 'POST', path: '/v1/code/context', scope: 'read', success: 200 },
  { operation: OP.palimpsest_impact_analyze, method: 'POST', path: '/v1/code/impact', scope: 'read', success: 200 },
  { operation: OP.run_command, method: 'POST', path: '/v1/commands/runs', scope: 'write', success: 200 },
  { operation: OP.start_command, method: 'POST', path: '/v1/commands', scope: 'write', success: 200 },
  { operation: OP.get_command_output, method: 'GET', path: '/v1/commands/:id/output', pathArgument: 'processId', scope: 'read', success: 200 },
  { operation: OP.send_command_input, method: 'POST', path: '/v1/commands/:id/input', pathArgument: 'processId', scope: 'write', success: 200 },
  { operation: OP.kill_command, method: 'POST', path: '/v1/commands/:id/kill', pathArgument: 'processId', scope: 'write', success: 200 },
  { operation: OP.list_projects, method: 'GET', path: '/v1/projects', scope: 'read', success: 200 },
  { operation: OP.get_active_project, method: 'GET', path: '/v1/projects/active', scope: 'read', success: 200 },
  { operation: OP.set_active_project, method: 'POST', path: '/v1/projects/active', scope: 'read', success: 200 },
  { operation: OP.palimpsest_list_sessions, method: 'GET', path: '/v1/audit/sessions', scope: 'auditor', success: 200 },
  { operation: OP.palimpsest_session_activity, method: 'GET', path: '/v1/audit/sessions/:id', pathArgument: 'correlation_id', scope: 'auditor', success: 200 },
  { operation: OP.palimpsest_open_snapshot, method: 'POST', path: '/v1/snapshots', scope: 'read', success: 200 },
  { operation: OP.palimpsest_snapshot_status, method: 'GET', path: '/v1/snapshots', scope: 'read', success: 200 },
  { operation: OP.palimpsest_read_snapshot_file, method: 'GET', path: '/v1/snapshots/files/content', scope: 'read', success: 200 },
];

export type RouteAccess = Scope | 'public';

/** The gateway's own routes by name: a misspelled one in a decorator or a docs table fails the type check. */
export const GATEWAY_ROUTE_NAMES = [
  'target_events',
  'replay_all',
  'projections_rebuild',
  'projections_rebuild_online',
  'approvals_list',
  'approvals_commands',
  'approvals_approve',
  'approvals_decline',
  'admin_dispatch',
  'admin_tokens_list',
  'admin_tokens_create',
  'admin_tokens_revoke',
  'admin_approval_decision',
  'admin_migrate',
  'admin_log_partitions',
  'admin_log_roll',
  'admin_log_archive',
  'health',
  'metrics',
  'docs',
  'openapi',
  'audit_key',
] as const;
export type GatewayRouteName = (typeof GATEWAY_ROUTE_NAMES)[number];

/** Routes that are the gateway's own, not catalog operations. */
export interface GatewayRoute {
  name: GatewayRouteName;
  method: HttpMethod;
  path: string;
  access: RouteAccess;
  summary: string;
  /** Every status the route answers with. */
  statuses: number[];
}

export const GATEWAY_ROUTES: readonly GatewayRoute[] = [
  { name: 'target_events', method: 'GET', path: '/v1/targets/:id/events', access: 'auditor', summary: 'Live events of one target (Server-Sent Events, resumable with Last-Event-ID)', statuses: [200, 400, 401, 403, 404, 429, 500, 503] },
  { name: 'replay_all', method: 'POST', path: '/v1/replay', access: 'operator', summary: 'Replay every target (a page at a time) and report divergence', statuses: [200, 400, 401, 403, 413, 415, 429, 500, 503] },
  { name: 'projections_rebuild', method: 'POST', path: '/v1/projections/rebuild', access: 'operator', summary: 'Drop and rebuild every read model from the events, proving it equal', statuses: [200, 400, 401, 403, 413, 415, 429, 500, 503] },
  { name: 'projections_rebuild_online', method: 'POST', path: '/v1/projections/rebuild-online', access: 'operator', summary: 'Rebuild read models beside the live ones while the service goes on, compare, swap', statuses: [200, 400, 401, 403, 404, 413, 415, 429, 500, 503] },
  { name: 'approvals_list', method: 'GET', path: '/v1/approvals', access: 'operator', summary: 'Applies an owner policy holds for a person (oldest first)', statuses: [200, 400, 401, 403, 429, 500, 503] },
  { name: 'approvals_commands', method: 'GET', path: '/v1/approvals/commands', access: 'operator', summary: 'Command runs an owner policy holds for a person (oldest first); decided with approve / decline', statuses: [200, 400, 401, 403, 429, 500, 503] },
  { name: 'approvals_approve', method: 'POST', path: '/v1/approvals/:id/approve', access: 'operator', summary: 'Grant a pending approval: the waiting apply proceeds', statuses: [200, 400, 401, 403, 404, 409, 413, 415, 429, 500, 503] },
  { name: 'approvals_decline', method: 'POST', path: '/v1/approvals/:id/decline', access: 'operator', summary: 'Decline a pending approval (final for that candidate version)', statuses: [200, 400, 401, 403, 404, 409, 413, 415, 429, 500, 503] },
  { name: 'admin_dispatch', method: 'POST', path: '/v1/admin/dispatch', access: 'operator', summary: 'Run one catalog operation as `palimpsest call` does (unrestricted token only)', statuses: [200, 400, 401, 403, 413, 415, 429, 500, 503] },
  { name: 'admin_tokens_list', method: 'GET', path: '/v1/admin/tokens', access: 'operator', summary: 'List API tokens, never their secrets (unrestricted token only)', statuses: [200, 400, 401, 403, 429, 500, 503] },
  { name: 'admin_tokens_create', method: 'POST', path: '/v1/admin/tokens', access: 'operator', summary: 'Create an API token and answer its secret once (unrestricted token only)', statuses: [201, 400, 401, 403, 413, 415, 429, 500, 503] },
  { name: 'admin_tokens_revoke', method: 'POST', path: '/v1/admin/tokens/:id/revoke', access: 'operator', summary: 'Revoke an API token (unrestricted token only)', statuses: [200, 400, 401, 403, 404, 429, 500, 503] },
  { name: 'admin_approval_decision', method: 'POST', path: '/v1/admin/approvals/:id/decision', access: 'operator', summary: 'Grant or decline an approval as a named person (unrestricted token only)', statuses: [200, 400, 401, 403, 404, 409, 413, 415, 429, 500, 503] },
  { name: 'admin_migrate', method: 'POST', path: '/v1/admin/migrate', access: 'operator', summary: 'Apply pending migrations on the gateway\'s store (unrestricted token only)', statuses: [200, 400, 401, 403, 429, 500, 503] },
  { name: 'admin_log_partitions', method: 'GET', path: '/v1/admin/log/partitions', access: 'operator', summary: 'List the event log\'s partitions, attached and archived (unrestricted token only)', statuses: [200, 400, 401, 403, 429, 500, 503] },
  { name: 'admin_log_roll', method: 'POST', path: '/v1/admin/log/roll', access: 'operator', summary: 'Start a new epoch of the event log while writers go on (unrestricted token only)', statuses: [200, 400, 401, 403, 413, 415, 429, 500, 503] },
  { name: 'admin_log_archive', method: 'POST', path: '/v1/admin/log/archive', access: 'operator', summary: 'Detach the closed epochs wholly before a position or time into palimpsest_archive (unrestricted token only)', statuses: [200, 400, 401, 403, 409, 413, 415, 429, 500, 503] },
  { name: 'health', method: 'GET', path: '/health', access: 'public', summary: 'Database reachable and migrations applied (terminus)', statuses: [200, 503] },
  { name: 'metrics', method: 'GET', path: '/metrics', access: 'public', summary: 'Prometheus metrics', statuses: [200, 503] },
  { name: 'docs', method: 'GET', path: '/docs', access: 'public', summary: 'Swagger UI over the OpenAPI 3.1 document', statuses: [200] },
  { name: 'openapi', method: 'GET', path: '/docs/openapi.json', access: 'public', summary: 'The OpenAPI 3.1 document', statuses: [200] },
  { name: 'audit_key', method: 'GET', path: '/.well-known/palimpsest-audit-key', access: 'public', summary: 'The verifier key of the audit log\'s signed checkpoints (404 when the audit log is off)', statuses: [200, 404] },
];

const byOperation = new Map(OPERATION_ROUTES.map((r) => [r.operation, r]));

export function routeOf(operation: OperationName): OperationRoute {
  const route = byOperation.get(operation);
  if (!route) throw new Error(`no HTTP route for ${operation}`);
  return route;
}

export function specOf<N extends OperationName>(operation: N): OperationSpec<N> {
  return operationSpec(operation);
}

export function gatewayRoute(name: GatewayRouteName): GatewayRoute {
  const route = GATEWAY_ROUTES.find((r) => r.name === name);
  if (!route) throw new Error(`no gateway route named ${name}`);
  return route;
}

/** `/v1/targets/:id/edits` → `/v1/targets/{id}/edits` (OpenAPI) or with a concrete id. */
export function concretePath(path: string, id?: string): string {
  return path.replace(':id', id ?? '{id}');
}

/** Argument names an operation accepts (from its catalog schema). */
export function argumentNames(spec: OperationSpec): string[] {
  return Object.keys((spec.params.properties as Record<string, unknown> | undefined) ?? {});
}

/** The argument the path's `:id` carries, or null for a route without one. */
export function pathArgumentOf(route: OperationRoute): string | null {
  return route.path.includes(':id') ? (route.pathArgument ?? 'target_file_id') : null;
}

const GUARD_ARGUMENTS = ['expected_target_version', 'expected_candidate_version'];
const KEY_ARGUMENTS = ['client_request_id', 'request_id'];

/** What If-Match binds to for this operation (its version guard), if it has one. */
export function guardArgumentOf(spec: OperationSpec): string | null {
  return GUARD_ARGUMENTS.find((name) => argumentNames(spec).includes(name)) ?? null;
}

/** What Idempotency-Key binds to for this operation (its request key), if it has one. */
export function keyArgumentOf(spec: OperationSpec): string | null {
  return KEY_ARGUMENTS.find((name) => argumentNames(spec).includes(name)) ?? null;
}

/** The README's row for an operation route: `| `POST /v1/targets` | `palimpsest_initialize_target` | write | 201 + Location |`. */
export function readmeRow(route: OperationRoute): string {
  const extras = [route.etag ? 'ETag' : null, route.success === 201 && !pathArgumentOf(route) ? 'Location' : null].filter(Boolean);
  const success = [String(route.success), ...extras].join(' + ') + (route.successNote ? ` (${route.successNote})` : '');
  return `| \`${route.method} ${concretePath(route.path)}\` | \`${route.operation}\` | ${route.scope} | ${success} |`;
}
