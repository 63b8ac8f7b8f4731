import type { JsonSchema } from './operation-spec';

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const targetFileId: JsonSchema = {
  type: 'string',
  description: 'Target UUID returned by palimpsest_initialize_target.',
};

/** A closed params object about one target: target_file_id is always first and required. */
export function targetParams(properties: Record<string, JsonSchema> = {}, required: string[] = []): JsonSchema {
  return {
    type: 'object',
    additionalProperties: false,
    required: ['target_file_id', ...required],
    properties: { target_file_id: targetFileId, ...properties },
  };
}

export const guardVersion: JsonSchema = {
  type: ['integer', 'null'],
  minimum: 0,
  description:
    'Version guard: the target version your read observed (non-negative integer). At least one of expected_target_version / expected_current_hash is required; every supplied guard is checked.',
};

export const guardHash: JsonSchema = {
  type: ['string', 'null'],
  pattern: '^[0-9a-f]{64}$',
  description:
    'Hash guard: 64 lowercase hex SHA-256 of the canonical LF text your read observed. Prefer the version guard: a hash cannot detect no-op or ABA changes.',
};

export const submissionCommon: Record<string, JsonSchema> = {
  target_file_id: targetFileId,
  intent: { type: 'string', description: 'One-line summary of what the transaction is for (stored with the attempt).' },
  expected_target_version: guardVersion,
  expected_current_hash: guardHash,
  source: { type: 'string', description: 'Who produced the proposal (default "model_response").' },
  parent_attempt_id: {
    type: ['string', 'null'],
    description: 'Lineage: UUID of the earlier (usually rejected) attempt this one retries.',
  },
  attempt: { type: ['integer', 'null'], minimum: 1, description: 'Lineage: 1-based retry attempt number.' },
  client_request_id: {
    type: ['string', 'null'],
    description:
      'Idempotency key, 1..128 printable ASCII characters. The identical request returns the recorded outcome with deduplicated: true; a different proposal under the same key is rejected (request_key_conflict).',
  },
  include_correlation_id: {
    type: 'boolean',
    description: 'When true, the response carries a fresh UUIDv4 correlation_id (never stored).',
  },
};

const changeMeta: Record<string, JsonSchema> = {
  change_id: { type: ['string', 'null'], description: 'Change identifier (default chg_001, chg_002, … by position).' },
  rationale: { type: ['string', 'null'], description: 'Why this change (recorded in the ledger).' },
  risk: { enum: ['low', 'medium', 'high', null], description: 'Declared risk of this change.' },
};

export const matchEdit: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['match', 'replace'],
  properties: {
    match: { type: 'string', minLength: 1, description: 'Exact text to find in the sequential buffer.' },
    replace: { type: 'string', description: 'Replacement text ("" deletes).' },
    occurrence_index: {
      type: ['integer', 'null'],
      minimum: 1,
      description: '1-based occurrence among overlapping exact matches in the buffer this edit sees (after earlier edits).',
    },
    anchor_before: { type: ['string', 'null'], minLength: 1, description: 'Text that must occur anywhere before the match.' },
    anchor_after: { type: ['string', 'null'], minLength: 1, description: 'Text that must occur anywhere after the match.' },
    ...changeMeta,
  },
};

export const matchOperation: JsonSchema = {
  ...matchEdit,
  required: ['op', 'match', 'replace'],
  properties: { op: { const: 'match' }, ...(matchEdit.properties as Record<string, JsonSchema>) },
};

export const spanOperation: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['op', 'start', 'end', 'expected_text', 'replace'],
  properties: {
    op: { const: 'span' },
    start: { type: 'integer', minimum: 0, description: 'Span start, code points in the sequential buffer.' },
    end: { type: 'integer', minimum: 0, description: 'Span end (exclusive), code points; end >= start.' },
    expected_text: { type: 'string', description: 'Exact text currently in [start, end) ("" for an insertion).' },
    replace: { type: 'string', description: 'Replacement text.' },
    expected_before: {
      type: ['string', 'null'],
      minLength: 1,
      description: 'Text immediately before start (selects runtime patchdiff-mvp-0.5.0).',
    },
    expected_after: {
      type: ['string', 'null'],
      minLength: 1,
      description: 'Text immediately after end (selects runtime patchdiff-mvp-0.5.0).',
    },
    ...changeMeta,
  },
};

export const historyLimit: JsonSchema = {
  type: ['integer', 'null'],
  minimum: 1,
  description: 'Page size: default 50, values above 200 clamp to 200.',
};

export const beforeSequence: JsonSchema = {
  type: ['integer', 'null'],
  minimum: 1,
  description: 'Exclusive continuation cursor: pass the previous page’s next_sequence.',
};

/** Results are open objects: the status field says which shape follows. */
/** Admission can refuse any call, so every result may be an invalid_argument. */
export const statusResult = (statuses: string[]): JsonSchema => ({
  type: 'object',
  required: ['status'],
  properties: { status: { enum: [...new Set([...statuses, 'invalid_argument'])] } },
});

/**
 * Examples are illustrative: they are written against a target holding EXAMPLE_TEXT at version 0,
 * and a host binds EXAMPLE_TARGET_ID (and guards) to its real target before calling.
 */
export const EXAMPLE_TARGET_ID = '5f0c8a2e-8d1b-4c3e-9a7f-2b6d4e8f1a30';
export const EXAMPLE_TEXT = 'alpha beta alpha\n';
export const EXAMPLE_HASH = 'b22ebf774cb2d9b12dc23d13ac860581d994ab579f4fb470b6f79d0b43a15ff2';
