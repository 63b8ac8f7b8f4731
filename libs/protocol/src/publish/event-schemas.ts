import { FAILURE_REASONS } from '@palimpsest/core/transaction/transaction.types';
import type { JsonSchema } from '../catalog/operation-spec';
import { candidateEventSchemas } from './candidate-event-schemas';
import { publicationEventSchemas } from './publication-event-schemas';
import { observationEventSchemas } from './observation-event-schemas';
import { commandRunEventSchemas } from './command-run-event-schemas';
import { snapshotEventSchemas } from './snapshot-event-schemas';
import { relayEventSchemas } from '../executor/relay-event-schemas';

/**
 * JSON Schemas (2020-12) of the target stream's event payloads (EVENT_SCHEMAS: the version each type is
 * written as; PUBLISHED_EVENT_SCHEMAS: every version ever published, older ones kept as released).
 * Published under schemas/events/ and frozen once released: a change means a new version and an upcaster.
 */
export const SCHEMA_BASE = 'https://palimpsest.dev/schemas';
const id = (name: string, version = 1) => `${SCHEMA_BASE}/events/${name}.v${version}.json`;

const uuid = { type: 'string', format: 'uuid' };
const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const version = { type: 'integer', minimum: 0 };
const nullable = (schema: JsonSchema) => ({ anyOf: [schema, { type: 'null' }] });
const timestamp = { type: 'string', format: 'date-time' };
const decimal = { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'A device or inode number, in decimal.' };

const changeFact = {
  type: 'object',
  additionalProperties: false,
  required: ['change_id', 'change_index', 'span_start', 'span_end', 'matched_chars', 'replacement_chars', 'matched_sha256', 'replacement_sha256'],
  properties: {
    change_id: { type: 'string' },
    change_index: { type: 'integer', minimum: 1 },
    span_start: { type: 'integer', minimum: 0, description: 'Code points, in the sequential buffer the change applied to.' },
    span_end: { type: 'integer', minimum: 0 },
    matched_chars: { type: 'integer', minimum: 0 },
    replacement_chars: { type: 'integer', minimum: 0 },
    matched_sha256: sha256,
    replacement_sha256: sha256,
    operation: { enum: ['match', 'span', 'replace_all'] },
  },
};

const attemptProperties: Record<string, JsonSchema> = {
  attempt_id: uuid,
  target_id: uuid,
  protocol_version: nullable({ enum: ['patchdiff-tx/1', 'patchdiff-tx/2', 'patchdiff-tx/3'] }),
  runtime_version: nullable({ type: 'string' }),
  content: { type: 'string', description: 'The submitted record as canonical JSON, or ASCII-escaped patchdiff-invalid-input/1 evidence.' },
  content_hash: sha256,
  request_fingerprint: sha256,
  client_request_id: nullable({ type: 'string', maxLength: 128 }),
  expected_target_version: nullable(version),
  expected_current_hash: nullable(sha256),
  parent_attempt_id: nullable(uuid),
  regeneration_attempt: nullable({ type: 'integer', minimum: 1 }),
  source: { type: 'string' },
  intent: nullable({ type: 'string' }),
  editing_cycle_id: uuid,
  submitted_at: timestamp,
  before_version: version,
  before_hash: sha256,
};
const attemptRequired = Object.keys(attemptProperties);

const PROPOSAL_ACCEPTED_V1: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  $id: id('proposal-accepted'),
  title: 'ProposalAccepted',
  description: 'A proposal passed every guard and applied; replay re-applies `content` under runtime_version.',
  type: 'object',
  additionalProperties: false,
  required: [...attemptRequired, 'after_version', 'after_hash', 'change_facts', 'annotations', 'warnings'],
  properties: {
    ...attemptProperties,
    after_version: version,
    after_hash: sha256,
    change_facts: { type: 'array', items: changeFact },
    annotations: {
      type: 'array',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['change_id', 'change_index', 'rationale', 'risk'],
        properties: {
          change_id: { type: 'string' },
          change_index: { type: 'integer', minimum: 1 },
          rationale: nullable({ type: 'string' }),
          risk: { enum: ['low', 'medium', 'high', null] },
        },
      },
    },
    warnings: nullable({
      type: 'object',
      required: ['warnings', 'warning_details', 'warning_count', 'warnings_truncated'],
      properties: {
        warnings: { type: 'array', items: { type: 'string' } },
        warning_details: { type: 'array', maxItems: 16, items: { type: 'object', required: ['code', 'detail'], properties: { code: { type: 'string' }, detail: { type: 'string' } } } },
        warning_count: { type: 'integer', minimum: 1 },
        warnings_truncated: { type: 'boolean' },
      },
    }),
  },
};

const textEffect = {
  type: 'object',
  additionalProperties: false,
  required: ['start', 'end', 'inserted'],
  properties: {
    start: { type: 'integer', minimum: 0, description: 'Code points into the preimage (the text before the acceptance).' },
    end: { type: 'integer', minimum: 0, description: 'Exclusive; start = end inserts.' },
    inserted: { type: 'string', description: 'Canonical LF text put in place of [start, end).' },
  },
};

/** Version 2: version 1 and what the acceptance did, so folds apply it without the engine. */
const PROPOSAL_ACCEPTED_V2: JsonSchema = {
  ...PROPOSAL_ACCEPTED_V1,
  $id: id('proposal-accepted', 2),
  description:
    'A proposal passed every guard and applied. `effects` is what it did, in code points of the preimage (ascending, disjoint; a whole replacement is one effect over the whole preimage): folds apply them and check after_hash; replay re-applies `content` under runtime_version and checks it reproduces them.',
  required: [...(PROPOSAL_ACCEPTED_V1.required as string[]), 'effects'],
  properties: { ...(PROPOSAL_ACCEPTED_V1.properties as Record<string, JsonSchema>), effects: { type: 'array', items: textEffect } },
};

/** Version 3: version 2 and, for a stale submission rebased (rebase: true), what the rebase did. Written only then. */
const PROPOSAL_ACCEPTED_V3: JsonSchema = {
  ...PROPOSAL_ACCEPTED_V2,
  $id: id('proposal-accepted', 3),
  properties: {
    ...(PROPOSAL_ACCEPTED_V2.properties as Record<string, JsonSchema>),
    rebased: {
      type: 'object',
      additionalProperties: false,
      description: 'The submission was written against from_version and carried through the acceptances since (none touched its ranges); content is the record as applied.',
      required: ['from_version', 'through_attempt_ids', 'spans', 'submitted_content_hash'],
      properties: {
        from_version: { type: 'integer', minimum: 0 },
        through_attempt_ids: { type: 'array', items: uuid },
        spans: {
          type: 'array',
          items: {
            type: 'object',
            additionalProperties: false,
            required: ['change_index', 'from_start', 'from_end', 'start', 'end'],
            properties: Object.fromEntries(['change_index', 'from_start', 'from_end', 'start', 'end'].map((k) => [k, { type: 'integer', minimum: 0 }])),
          },
        },
        submitted_content_hash: sha256,
      },
    },
  },
};

export const EVENT_SCHEMAS: Record<string, JsonSchema> = {
  TargetInitialized: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id('target-initialized'),
    title: 'TargetInitialized',
    description: 'A target was created: its initial snapshot (canonical LF text) and source line endings.',
    type: 'object',
    additionalProperties: false,
    required: ['target_id', 'filename', 'content_type', 'project_id', 'content', 'current_hash', 'source_line_endings', 'editing_cycle_id', 'snapshot_id', 'initialized_at'],
    properties: {
      target_id: uuid,
      filename: { type: 'string' },
      content_type: { type: 'string' },
      project_id: nullable(uuid),
      content: { type: 'string' },
      current_hash: sha256,
      source_line_endings: nullable({
        type: 'object',
        additionalProperties: false,
        required: ['style', 'lf', 'crlf', 'cr', 'normalized', 'source_code_points', 'source_utf8_bytes', 'source_sha256'],
        properties: {
          style: { enum: ['none', 'lf', 'crlf', 'cr', 'mixed'] },
          lf: { type: 'integer', minimum: 0 },
          crlf: { type: 'integer', minimum: 0 },
          cr: { type: 'integer', minimum: 0 },
          normalized: { type: 'boolean' },
          source_code_points: { type: 'integer', minimum: 0 },
          source_utf8_bytes: { type: 'integer', minimum: 0 },
          source_sha256: sha256,
        },
      }),
      editing_cycle_id: uuid,
      snapshot_id: uuid,
      initialized_at: timestamp,
    },
  },
  ProposalAccepted: PROPOSAL_ACCEPTED_V3,
  ProposalRejected: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id('proposal-rejected'),
    title: 'ProposalRejected',
    description: 'A proposal was refused and audited; nothing changed. The diagnostic tells the caller how to succeed.',
    type: 'object',
    additionalProperties: false,
    required: [...attemptRequired, 'failure_reason', 'failure_detail', 'failed_change_id', 'validation_stage', 'retryable', 'diagnostic'],
    properties: {
      ...attemptProperties,
      failure_reason: { enum: [...FAILURE_REASONS] },
      failure_detail: { type: 'string' },
      failed_change_id: nullable({ type: 'string' }),
      validation_stage: { enum: ['PROTOCOL_VALIDATION', 'PRECONDITION_GUARD', 'transaction_applicability'] },
      retryable: { type: 'boolean' },
      diagnostic: { type: 'object' },
    },
  },
  CheckpointSaved: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id('checkpoint-saved'),
    title: 'CheckpointSaved',
    description: 'A save checkpoint: the active editing cycle was closed and a new one opened; the text is unchanged.',
    type: 'object',
    additionalProperties: false,
    required: ['target_id', 'snapshot_id', 'snapshot_reason', 'closed_editing_cycle_id', 'new_editing_cycle_id', 'version', 'current_hash', 'saved_at'],
    properties: {
      target_id: uuid,
      snapshot_id: uuid,
      snapshot_reason: { const: 'save_checkpoint' },
      closed_editing_cycle_id: uuid,
      new_editing_cycle_id: uuid,
      version,
      current_hash: sha256,
      saved_at: timestamp,
    },
  },
  WorkspaceFileBound: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id('workspace-file-bound'),
    title: 'WorkspaceFileBound',
    description:
      'The target was imported from a workspace file and is bound to it: the root directory and the file by device and inode, the path under the root, the hash and line-ending style of the bytes read. Follows TargetInitialized in the same append; the text is unchanged.',
    type: 'object',
    additionalProperties: false,
    required: ['target_id', 'path', 'root_dev', 'root_ino', 'file_dev', 'file_ino', 'source_sha256', 'source_line_ending_style', 'bound_at'],
    properties: {
      target_id: uuid,
      path: { type: 'string', minLength: 1, description: 'Canonical relative POSIX path under the workspace root.' },
      root_dev: decimal,
      root_ino: decimal,
      file_dev: decimal,
      file_ino: decimal,
      source_sha256: { ...sha256, description: 'SHA-256 of the file bytes as read.' },
      source_line_ending_style: { enum: ['none', 'lf', 'crlf', 'cr', 'mixed'] },
      bound_at: timestamp,
    },
  },
  WorkspaceFileRefreshed: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id('workspace-file-refreshed'),
    title: 'WorkspaceFileRefreshed',
    description:
      'A bound file changed outside Palimpsest was taken in (palimpsest_workspace_refresh): its bytes are the new baseline. attempt_id is the accepted whole replacement (source external_disk) recorded just before it in the same append, or null when the file\'s text already equalled the target\'s and only the baseline moved. The text is unchanged by this event.',
    type: 'object',
    additionalProperties: false,
    required: ['target_id', 'path', 'disk_sha256', 'previous_disk_sha256', 'attempt_id', 'source_line_ending_style', 'refreshed_at'],
    properties: {
      target_id: uuid,
      path: { type: 'string', minLength: 1, description: 'Canonical relative POSIX path under the workspace root.' },
      disk_sha256: { ...sha256, description: 'SHA-256 of the file bytes taken in: the new baseline.' },
      previous_disk_sha256: { ...sha256, description: 'The baseline the bytes had drifted from.' },
      attempt_id: { ...nullable(uuid), description: 'The accepted whole replacement that took the text in, or null.' },
      source_line_ending_style: { enum: ['none', 'lf', 'crlf', 'cr', 'mixed'] },
      refreshed_at: timestamp,
    },
  },
  WorkspacePublishSet: {
    $schema: 'https://json-schema.org/draft/2020-12/schema',
    $id: id('workspace-publish-set'),
    title: 'WorkspacePublishSet',
    description:
      "A bound target's publication mode: on_accept (an accepted direct submission is published to the file with the acceptance, the default) or on_save (the file waits for palimpsest_save). Follows WorkspaceFileBound in the same append when the mode is not the default; the text is unchanged.",
    type: 'object',
    additionalProperties: false,
    required: ['target_id', 'publish', 'set_at'],
    properties: {
      target_id: uuid,
      publish: { enum: ['on_accept', 'on_save'] },
      set_at: timestamp,
    },
  },
  ...candidateEventSchemas(SCHEMA_BASE),
  ...publicationEventSchemas(SCHEMA_BASE),
  ...observationEventSchemas(SCHEMA_BASE),
  ...commandRunEventSchemas(SCHEMA_BASE),
  ...snapshotEventSchemas(SCHEMA_BASE),
  ...relayEventSchemas(SCHEMA_BASE),
};

/** Versions still published beside the current one (read by upcasters; ProposalAccepted v2 is still what an acceptance that was not rebased writes). */
const SUPERSEDED_EVENT_SCHEMAS: Record<string, Record<number, JsonSchema>> = {
  ProposalAccepted: { 1: PROPOSAL_ACCEPTED_V1, 2: PROPOSAL_ACCEPTED_V2 },
};

/** The version of each current schema (from its $id). */
const versionOf = (schema: JsonSchema) => Number(/\.v(\d+)\.json$/.exec(String(schema.$id))![1]);

/** Every published event schema, each type's versions in ascending order. */
export const PUBLISHED_EVENT_SCHEMAS: { type: string; version: number; schema: JsonSchema }[] = Object.entries(EVENT_SCHEMAS).flatMap(([type, schema]) => [
  ...Object.entries(SUPERSEDED_EVENT_SCHEMAS[type] ?? {}).map(([v, old]) => ({ type, version: Number(v), schema: old })),
  { type, version: versionOf(schema), schema },
]);

export function eventSchemaFileName(type: string, version = 1): string {
  return `${type.replace(/([a-z])([A-Z])/g, '$1-$2').toLowerCase()}.v${version}.json`;
}
