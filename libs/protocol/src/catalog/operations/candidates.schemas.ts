import { UUID_PATTERN } from '../fragments';
import type { JsonSchema } from '../operation-spec';

/** Schema pieces of the candidate operations (palimpsest_change_* and friends). */

const uuid = (description: string): JsonSchema => ({ type: 'string', pattern: UUID_PATTERN, description });

export const candidateId = uuid('Candidate id returned by palimpsest_change_propose.');

export const requestId: JsonSchema = {
  type: 'string',
  pattern: '^[\\x20-\\x7e]{1,128}$',
  description: 'Idempotency key: the same input replays its answer (replayed: true); other input is conflict / request_id_reused.',
};

export const expectedCandidateVersion: JsonSchema = {
  type: 'integer',
  minimum: 1,
  description: 'The candidate version you read; another version is precondition_failed / candidate_version_mismatch.',
};

export const checkNames = (description: string): JsonSchema => ({
  type: 'array',
  maxItems: 16,
  items: { type: 'string', minLength: 1, maxLength: 64 },
  description,
});

export const base: JsonSchema = {
  type: 'array',
  minItems: 1,
  maxItems: 50,
  description: 'Each target at the version read; one only read, not written, is reported in base_changes if it moved.',
  items: {
    type: 'object',
    additionalProperties: false,
    required: ['target_file_id', 'version'],
    properties: { target_file_id: uuid('Target UUID.'), version: { type: 'integer', minimum: 0, description: 'Target version read.' } },
  },
};

const target = uuid('Target UUID, listed in base.');
const handle: JsonSchema = {
  type: 'string',
  pattern: '^[A-Za-z0-9_-]{1,64}$',
  description: 'Names the text this operation writes, for a later span\'s range.',
};
const meta: Record<string, JsonSchema> = {
  rationale: { type: ['string', 'null'], description: 'Why (kept in the ledger on apply).' },
  risk: { enum: ['low', 'medium', 'high', null], description: 'Declared risk.' },
};
const matchFields: Record<string, JsonSchema> = {
  match: { type: 'string', minLength: 1, description: 'Exact text to find.' },
  replace: { type: 'string', description: 'Replacement ("" deletes).' },
  occurrence_index: { type: ['integer', 'null'], minimum: 1, description: '1-based occurrence (overlapping matches count).' },
  anchor_before: { type: ['string', 'null'], minLength: 1, description: 'Text that must occur before the match.' },
  anchor_after: { type: ['string', 'null'], minLength: 1, description: 'Text that must occur after the match.' },
};

const op = (kind: string, required: string[], properties: Record<string, JsonSchema>, description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  description,
  required: ['kind', 'target_file_id', ...required],
  properties: { kind: { const: kind }, target_file_id: target, handle, ...properties, ...meta },
});

export const operations: JsonSchema = {
  type: 'array',
  minItems: 1,
  description: '1 to 50, in order, all or nothing, each on the buffer the earlier ones left; a failure names operation_index.',
  items: {
    oneOf: [
      op('edit', ['match', 'replace'], matchFields, 'patchdiff-tx/1 typed edit.'),
      op('match', ['match', 'replace'], matchFields, 'patchdiff-tx/2 match operation.'),
      op(
        'span',
        ['replace'],
        {
          start: { type: 'integer', minimum: 0, description: 'Code points.' },
          end: { type: 'integer', minimum: 0, description: 'Code points, exclusive.' },
          range: {
            type: 'object',
            additionalProperties: false,
            required: ['handle'],
            properties: { handle },
            description: 'Instead of start/end: text an earlier operation wrote.',
          },
          expected_text: { type: 'string', description: 'Current text of the span (optional with range).' },
          replace: { type: 'string', description: 'Replacement.' },
          expected_before: { type: ['string', 'null'], minLength: 1, description: 'Text right before start.' },
          expected_after: { type: ['string', 'null'], minLength: 1, description: 'Text right after end.' },
        },
        'patchdiff-tx/2 span operation: start/end/expected_text, or range.',
      ),
      op('replace_all', ['replacement'], { replacement: { type: 'string', description: 'The whole new text.' } }, 'patchdiff-tx/3 whole replacement.'),
    ],
  },
};

export const intent: JsonSchema = { type: ['string', 'null'], maxLength: 2000, description: 'One-line summary for each target transaction.' };

/** Every candidate answer: status ok, or status error with seed 000's error object. */
export const candidateResult = (properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  required: ['status'],
  properties: {
    status: { enum: ['ok', 'error', 'invalid_argument'] },
    error: {
      type: 'object',
      required: ['code', 'message', 'retryable', 'next_actions'],
      properties: {
        code: { type: 'string' },
        reason: { type: 'string' },
        message: { type: 'string' },
        retryable: { enum: ['none', 'same_request', 'after_refresh'] },
        next_actions: { type: 'array' },
      },
    },
    ...properties,
  },
});

export const CANDIDATE_ERRORS = [
  'invalid_arguments',
  'not_found',
  'stale_snapshot',
  'precondition_failed',
  'conflict',
  'snapshot_expired',
  'permission_denied',
  'resource_limit',
  'internal',
];
