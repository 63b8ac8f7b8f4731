import type { JsonSchema } from './operation-spec';

export const UUID_PATTERN = '^[0-9a-fA-F]{8}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{4}-[0-9a-fA-F]{12}$';

export const targetFileId: JsonSchema = {
  type: 'string',
  description: 'Target UUID.',
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
  description: 'Version guard: the version you read.',
};

export const guardHash: JsonSchema = {
  type: ['string', 'null'],
  pattern: '^[0-9a-f]{64}$',
  description: 'Hash guard: SHA-256 hex of the LF text you read.',
};

export const submissionCommon: Record<string, JsonSchema> = {
  target_file_id: targetFileId,
  intent: { type: 'string', description: 'One-line summary of the change (stored with the attempt).' },
  expected_target_version: guardVersion,
  expected_current_hash: guardHash,
  source: { type: 'string', description: 'Producer of the proposal (default "model_response").' },
  parent_attempt_id: {
    type: ['string', 'null'],
    description: 'Lineage: the attempt this one retries.',
  },
  attempt: { type: ['integer', 'null'], minimum: 1, description: 'Lineage: retry number (1-based).' },
  client_request_id: {
    type: ['string', 'null'],
    description: 'Idempotency key (1..128 printable ASCII): a repeat returns the first outcome (deduplicated: true).',
  },
  include_correlation_id: {
    type: 'boolean',
    description: 'true: add a fresh correlation_id (never stored).',
  },
};

const changeMeta: Record<string, JsonSchema> = {
  change_id: { type: ['string', 'null'], description: 'Change id (default chg_001, chg_002 by position).' },
  rationale: { type: ['string', 'null'], description: 'Why this change (recorded in the ledger).' },
  risk: { enum: ['low', 'medium', 'high', null], description: 'Declared risk.' },
};

export const matchEdit: JsonSchema = {
  type: 'object',
  additionalProperties: false,
  required: ['match', 'replace'],
  properties: {
    match: { type: 'string', minLength: 1, description: 'Exact text to find.' },
    replace: { type: 'string', description: 'Replacement text ("" deletes).' },
    occurrence_index: {
      type: ['integer', 'null'],
      minimum: 1,
      description: '1-based occurrence (overlapping matches count).',
    },
    anchor_before: { type: ['string', 'null'], minLength: 1, description: 'Text that must occur before the match.' },
    anchor_after: { type: ['string', 'null'], minLength: 1, description: 'Text that must occur after the match.' },
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
    start: { type: 'integer', minimum: 0, description: 'Span start (code points).' },
    end: { type: 'integer', minimum: 0, description: 'Span end (code points, exclusive; >= start).' },
    expected_text: { type: 'string', description: 'Exact text now in [start, end) ("" to insert).' },
    replace: { type: 'string', description: 'Replacement text.' },
    expected_before: { type: ['string', 'null'], minLength: 1, description: 'Text right before start (runtime 0.5.0).' },
    expected_after: { type: ['string', 'null'], minLength: 1, description: 'Text right after end (runtime 0.5.0).' },
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
/** Reads a gateway may serve from a replica: a write's log_sequence they must show (else the primary answers). */
export const readYourWrites: JsonSchema = {
  type: ['integer', 'null'],
  minimum: 1,
  description: 'A write\'s log_sequence the answer must include (read-your-writes on a replica).',
};

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
