import type { JsonSchema } from '../catalog/operation-spec';
import { payloadSchemas } from './payload-schemas';

/**
 * JSON Schemas (2020-12) of the candidate stream's event payloads, schema version 1, published
 * beside the target events under schemas/events/ (merged into EVENT_SCHEMAS with the same base).
 */

const uuid = { type: 'string', format: 'uuid' };
const sha256 = { type: 'string', pattern: '^[0-9a-f]{64}$' };
const version = { type: 'integer', minimum: 0 };
const candidateVersion = { type: 'integer', minimum: 1 };
const timestamp = { type: 'string', format: 'date-time' };
const nullable = (schema: JsonSchema) => ({ anyOf: [schema, { type: 'null' }] });
const text = { type: 'string' };
const requestId = { type: 'string', minLength: 1, maxLength: 128 };

const closed = (required: string[], properties: Record<string, JsonSchema>): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required,
  properties,
});
const all = (properties: Record<string, JsonSchema>) => closed(Object.keys(properties), properties);

const baseTarget = all({ target_id: uuid, version, hash: sha256, filename: text, content_type: text });
const resolvedOperation = all({
  candidate_version: candidateVersion,
  index: { type: 'integer', minimum: 0 },
  start: { type: 'integer', minimum: 0, description: 'Code points of the candidate buffer the operation applied to.' },
  end: { type: 'integer', minimum: 0 },
  expected_text: text,
  replace: text,
  rationale: nullable(text),
  risk: { enum: ['low', 'medium', 'high', null] },
});
const outcome = all({
  index: { type: 'integer', minimum: 0 },
  kind: { enum: ['edit', 'match', 'span', 'replace_all'] },
  target_id: uuid,
  handle: nullable(text),
  start: { type: 'integer', minimum: 0 },
  end: { type: 'integer', minimum: 0 },
  written_end: { type: 'integer', minimum: 0 },
  outcome: { enum: ['changed', 'no_change'] },
  normalized: { type: 'boolean' },
});
const targetChange = all({ target_id: uuid, operations: { type: 'array', items: resolvedOperation }, result_hash: sha256 });
const proposal = {
  candidate_id: uuid,
  request_id: requestId,
  input_fingerprint: sha256,
  intent: nullable(text),
  operations: { type: 'array', items: outcome },
  changes: { type: 'array', items: targetChange },
  expires_at: timestamp,
};
const decided = all({ approval_id: uuid, candidate_id: uuid, candidate_version: candidateVersion, decided_by: text, note: nullable(text), decided_at: timestamp });
const output = all({ exit_code: nullable({ type: 'integer' }), signal: nullable(text), stdout: text, stderr: text, truncated: { type: 'boolean' }, timed_out: { type: 'boolean' } });

const PAYLOADS: Record<string, [string, JsonSchema]> = {
  CandidateProposed: ['A candidate was proposed: its base targets, each operation resolved to the span it replaced, and the resulting hashes.', all({ ...proposal, version: { const: 1 }, base: { type: 'array', items: baseTarget }, proposed_at: timestamp })],
  CandidateExtended: ['An open candidate gained a version: more operations on its text, possibly over targets that joined it.', all({ ...proposal, version: candidateVersion, base_added: { type: 'array', items: baseTarget }, extended_at: timestamp })],
  CheckRecorded: ['The result of one check on one candidate version; a failed check is a result, not an error.', all({
    candidate_id: uuid,
    candidate_version: candidateVersion,
    check: text,
    kind: { enum: ['builtin', 'command'] },
    status: { enum: ['passed', 'failed', 'unavailable'] },
    ok: { type: 'boolean' },
    reason: nullable(text),
    targets: { type: 'array', items: all({ target_id: uuid, ok: { type: 'boolean' }, message: nullable(text), line: nullable({ type: 'integer' }), column: nullable({ type: 'integer' }) }) },
    output: nullable(output),
    duration_ms: { type: 'integer', minimum: 0 },
    recorded_at: timestamp,
  })],
  ApprovalRequested: ['An owner policy needs a person to approve applying this candidate version.', all({
    approval_id: uuid, candidate_id: uuid, candidate_version: candidateVersion, request_id: requestId, input_fingerprint: sha256, policy: nullable(text), prompt: { type: 'string', maxLength: 2048 }, requested_at: timestamp,
  })],
  ApprovalGranted: ['An operator approved applying the candidate version.', decided],
  ApprovalDeclined: ['An operator declined applying the candidate version; the answer is final for that version.', decided],
  ApprovalWithdrawn: ['The call that asked for the approval was cancelled before anything was written: no grant applies it, and the candidate is discarded with it.', all({
    approval_id: uuid, candidate_id: uuid, candidate_version: candidateVersion, reason: { enum: ['cancelled'] }, withdrawn_at: timestamp,
  })],
  CandidateApplied: ['The candidate was written to every target it changes, in one transaction; the receipt.', all({
    candidate_id: uuid,
    candidate_version: candidateVersion,
    receipt_id: uuid,
    request_id: requestId,
    input_fingerprint: sha256,
    approval_id: nullable(uuid),
    targets: { type: 'array', items: all({ target_id: uuid, attempt_id: uuid, base_version: version, base_hash: sha256, result_version: version, result_hash: sha256 }) },
    base_changes: { type: 'array', items: all({ target_id: uuid, base_version: version, base_hash: sha256, current_version: version, current_hash: sha256 }) },
    applied_at: timestamp,
  })],
  CandidateDiscarded: ['An open candidate was closed without being applied.', all({ candidate_id: uuid, candidate_version: candidateVersion, discarded_at: timestamp })],
  CandidateExpired: ['An open candidate outlived its expiry and was closed.', all({ candidate_id: uuid, candidate_version: candidateVersion, expires_at: timestamp, expired_at: timestamp })],
};

export function candidateEventSchemas(base: string): Record<string, JsonSchema> {
  return payloadSchemas(base, PAYLOADS);
}
