import type { JsonSchema } from '@palimpsest/protocol/catalog/operation-spec';
import type { GatewayRouteName } from '../routes/route-table';

/**
 * What the gateway's own routes (not catalog operations) answer with, for the OpenAPI document: the
 * media type and schema of each success. The operator answers' examples are real runs
 * (operation-examples.int.spec.ts); health, metrics and the event stream show their format.
 */

export interface GatewayAnswer {
  mediaType: string;
  schema: JsonSchema;
  /** A literal example of a text answer (a JSON answer's example comes from the example run). */
  example?: string;
}

const indicator = (details: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required: ['status'],
  properties: { status: { enum: ['up', 'down'] }, ...details },
});

const CONSUMER: JsonSchema = {
  type: 'object',
  required: ['name', 'kind', 'state', 'checkpoint', 'lag_events', 'lag_seconds', 'leader'],
  properties: {
    name: { type: 'string' },
    kind: { enum: ['projection', 'relay'] },
    state: { enum: ['running', 'catching_up', 'rebuilding', 'stopped'], description: 'stopped: no live leader.' },
    checkpoint: { type: 'object', required: ['xid', 'position'], properties: { xid: { type: 'string' }, position: { type: 'integer' } } },
    lag_events: { type: 'integer', description: 'Committed events not yet handled.' },
    lag_seconds: { type: 'number', description: 'Age of the oldest of them (0 when caught up).' },
    leader: { type: ['string', 'null'], description: 'host:pid holding the leader lease.' },
  },
};

const nullableText: JsonSchema = { type: ['string', 'null'] };
const COMMAND_APPROVAL: JsonSchema = {
  type: 'object',
  required: ['approval_id', 'run_id', 'command', 'rule', 'prompt', 'status', 'requested_at', 'decided_by', 'note'],
  properties: {
    approval_id: { type: 'string', description: 'Pass to /v1/approvals/{id}/approve or …/decline.' },
    run_id: { type: 'string', description: 'The command-run stream.' },
    command: { type: 'string', description: 'The command line as asked.' },
    rule: { ...nullableText, description: 'The policy rule that asked for a person.' },
    prompt: { type: 'string', description: 'What the person is asked.' },
    status: { enum: ['pending', 'granted', 'declined', 'timed_out'] },
    requested_at: { type: 'string', description: 'ISO 8601.' },
    decided_by: nullableText,
    note: nullableText,
  },
};

const HEALTH: JsonSchema = {
  type: 'object',
  description: 'The terminus report.',
  required: ['status', 'info', 'error', 'details'],
  properties: {
    status: { enum: ['ok', 'degraded'], description: 'degraded: an asynchronous consumer lags by more than PALIMPSEST_PROJECTION_LAG_DEGRADED_S (default 30); still 200.' },
    info: {
      type: 'object',
      properties: {
        database: indicator({ backend: { enum: ['postgres', 'pglite'] } }),
        migrations: indicator({ pending: { type: 'integer' } }),
        projections: indicator({
          degraded: { type: 'boolean' },
          lag_threshold_seconds: { type: 'number' },
          lagging: { type: 'array', items: { type: 'string' } },
          consumers: { type: 'array', items: CONSUMER },
        }),
      },
    },
    error: { type: 'object' },
    details: { type: 'object' },
  },
};

const REPLAY_ALL: JsonSchema = {
  type: 'object',
  required: ['status', 'checked', 'diverged', 'next_after'],
  properties: {
    status: { enum: ['success', 'failed'], description: 'failed: at least one target diverged (a report, not an error).' },
    checked: { type: 'integer', description: 'Targets replayed in this page.' },
    diverged: { type: 'array', items: { $ref: '#/components/schemas/palimpsest_replay.answer' }, description: 'The reports of the targets that diverged.' },
    next_after: { type: ['integer', 'null'], description: 'Pass as after for the next page; null when every target was checked.' },
  },
};

const REBUILD: JsonSchema = {
  type: 'object',
  required: ['status', 'equal', 'compared', 'differing', 'missing', 'extra', 'streams', 'events', 'duration_ms'],
  properties: {
    status: { enum: ['ok', 'failed'], description: 'ok when the rebuilt read models equal what they replaced.' },
    equal: { type: 'boolean' },
    compared: { type: 'integer', description: 'Targets whose read-model digests were compared.' },
    differing: { type: 'array', items: { type: 'string' }, description: 'Targets whose rebuilt models differ.' },
    missing: { type: 'array', items: { type: 'string' }, description: 'Targets the rebuild did not reproduce.' },
    extra: { type: 'array', items: { type: 'string' }, description: 'Targets only the rebuild has.' },
    streams: { type: 'integer' },
    events: { type: 'integer' },
    duration_ms: { type: 'integer' },
  },
};

const APPROVAL: JsonSchema = {
  type: 'object',
  required: ['approval_id', 'candidate', 'candidate_version', 'candidate_state', 'request_id', 'status', 'prompt', 'requested_at'],
  properties: {
    approval_id: { type: 'string' },
    candidate: { type: 'string' },
    candidate_version: { type: 'integer' },
    candidate_state: { type: 'string', description: 'An open candidate past its expiry reads as expired.' },
    request_id: { type: 'string', description: 'The waiting apply\'s request_id.' },
    status: { enum: ['pending', 'granted', 'declined', 'withdrawn'] },
    policy: { type: ['string', 'null'] },
    prompt: { type: 'string', description: 'What the policy asks the person.' },
    requested_at: { type: ['string', 'null'], description: 'ISO 8601.' },
    decided_at: { type: ['string', 'null'] },
    decided_by: { type: ['string', 'null'] },
    note: { type: ['string', 'null'] },
  },
};

const TOKEN: JsonSchema = {
  type: 'object',
  required: ['token_id', 'name', 'scopes', 'policy', 'created_at', 'revoked_at', 'last_used_at'],
  properties: {
    token_id: { type: 'string' },
    name: { type: 'string' },
    scopes: { type: 'array', items: { enum: ['read', 'write', 'operator', 'auditor', 'executor'] } },
    policy: { type: ['object', 'null'], description: 'The owner policy stored with the token; null: only its scopes restrict it.' },
    created_at: { type: 'string' },
    revoked_at: { type: ['string', 'null'] },
    last_used_at: { type: ['string', 'null'] },
  },
};

const ok = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required: ['status', ...Object.keys(properties)],
  properties: { status: { const: 'ok' }, ...properties },
});

const REBUILT_ONLINE: JsonSchema = {
  type: 'object',
  required: ['name', 'equal', 'compared', 'differing', 'missing', 'extra', 'events', 'tail', 'locked_ms', 'lock_retries', 'duration_ms'],
  properties: {
    name: { type: 'string', description: '`inline` or an asynchronous projection.' },
    equal: { type: 'boolean', description: 'The live model equalled the rebuilt one (it is replaced either way).' },
    compared: { type: 'integer' },
    differing: { type: 'array', items: { type: 'string' }, description: 'Digest keys (target ids, candidate:…, publication:…, <projection>:<table>) that differed.' },
    missing: { type: 'array', items: { type: 'string' } },
    extra: { type: 'array', items: { type: 'string' } },
    events: { type: 'integer', description: 'Events applied to the rebuilt model.' },
    tail: { type: 'integer', description: 'Of those, applied under the lock at the switch.' },
    locked_ms: { type: 'integer', description: 'How long readers and writers of the model waited on the switch.' },
    lock_retries: { type: 'integer' },
    duration_ms: { type: 'integer' },
  },
};

const REBUILD_ONLINE: JsonSchema = {
  type: 'object',
  required: ['status', 'equal', 'rebuilt'],
  properties: {
    status: { enum: ['ok', 'failed'], description: 'ok when every live model equalled its rebuild.' },
    equal: { type: 'boolean' },
    rebuilt: { type: 'array', items: REBUILT_ONLINE },
  },
};

const SSE_EXAMPLE = [
  'retry: 2000',
  '',
  'id: 42',
  'event: ProposalAccepted',
  'data: {"global_position":42,"stream_id":"target-5f0c8a2e-8d1b-4c3e-9a7f-2b6d4e8f1a30","stream_version":2,"type":"ProposalAccepted","schema_version":1,"recorded_at":"2026-01-01T12:00:00.000Z","data":{…},"metadata":{…}}',
  '',
  ': heartbeat 2026-01-01T12:00:15.000Z',
  '',
].join('\n');

/** Partitions of the event log, one per epoch (libs/store/src/log-partitions.ts). */
const LOG_PARTITIONS = { type: 'array', items: { type: 'object', required: ['epoch'], properties: { epoch: { type: 'integer' } } } };

export const GATEWAY_ANSWERS: Record<GatewayRouteName, GatewayAnswer> = {
  health: { mediaType: 'application/json', schema: HEALTH },
  metrics: {
    mediaType: 'text/plain',
    schema: { type: 'string', description: 'Prometheus text exposition format 0.0.4.' },
    example: '# TYPE palimpsest_http_requests_total counter\npalimpsest_http_requests_total{method="GET",route="/v1/targets/:id",status="200"} 3\n',
  },
  target_events: {
    mediaType: 'text/event-stream',
    schema: { type: 'string', description: '`id` = global position (send back as Last-Event-ID), `event` = event type, `data` = the event as JSON; comment lines are heartbeats.' },
    example: SSE_EXAMPLE,
  },
  replay_all: { mediaType: 'application/json', schema: REPLAY_ALL },
  projections_rebuild: { mediaType: 'application/json', schema: REBUILD },
  projections_rebuild_online: { mediaType: 'application/json', schema: REBUILD_ONLINE },
  approvals_list: {
    mediaType: 'application/json',
    schema: { type: 'object', required: ['status', 'approvals'], properties: { status: { const: 'ok' }, approvals: { type: 'array', items: { $ref: '#/components/schemas/Approval' } } } },
  },
  approvals_commands: { mediaType: 'application/json', schema: ok({ approvals: { type: 'array', items: COMMAND_APPROVAL } }) },
  approvals_approve: {
    mediaType: 'application/json',
    schema: { type: 'object', required: ['status', 'approval'], properties: { status: { const: 'ok' }, approval: { $ref: '#/components/schemas/Approval' } } },
  },
  approvals_decline: {
    mediaType: 'application/json',
    schema: { type: 'object', required: ['status', 'approval'], properties: { status: { const: 'ok' }, approval: { $ref: '#/components/schemas/Approval' } } },
  },
  admin_dispatch: {
    mediaType: 'application/json',
    schema: { type: 'object', required: ['status'], properties: { status: { type: 'string' } }, description: 'The operation\'s outcome exactly as `palimpsest call` prints it: its answer, or its refusal (the status says which).' },
  },
  admin_tokens_list: { mediaType: 'application/json', schema: ok({ tokens: { type: 'array', items: TOKEN } }) },
  admin_tokens_create: { mediaType: 'application/json', schema: ok({ token: { type: 'string', description: 'The secret, shown once.' }, record: TOKEN }) },
  admin_tokens_revoke: { mediaType: 'application/json', schema: ok({ token: TOKEN }) },
  admin_approval_decision: { mediaType: 'application/json', schema: ok({ approval: { $ref: '#/components/schemas/Approval' } }) },
  admin_migrate: { mediaType: 'application/json', schema: ok({ applied: { type: 'array', items: { type: 'string' }, description: 'Migrations applied now; usually none, the gateway migrated when it opened the store.' } }) },
  admin_log_partitions: { mediaType: 'application/json', schema: ok({ currentEpoch: { type: 'integer' }, attached: LOG_PARTITIONS, archived: LOG_PARTITIONS }) },
  admin_log_roll: { mediaType: 'application/json', schema: ok({ current_epoch: { type: 'integer', description: 'The epoch appends go to from now on.' } }) },
  admin_log_archive: { mediaType: 'application/json', schema: ok({ archived: { ...LOG_PARTITIONS, description: 'The epochs detached now, oldest first; none when no closed epoch lies wholly before the bound.' } }) },
  docs: { mediaType: 'text/html', schema: { type: 'string', description: 'Swagger UI.' } },
  openapi: { mediaType: 'application/json', schema: { type: 'object', description: 'This document.' } },
  audit_key: {
    mediaType: 'text/plain',
    schema: { type: 'string', description: 'The verifier key of the audit log\'s signed checkpoints: `<name>+<hex key id>+<base64(0x01 ‖ Ed25519 public key)>`.' },
    example: 'palimpsest+61c31e37+AbIE6YPiOnoW51XHByvNcwznwNsYLqB/EQzyb60DzZt0\n',
  },
};

export const APPROVAL_SCHEMA = APPROVAL;
