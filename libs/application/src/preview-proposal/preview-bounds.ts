import type { Retryable } from '@palimpsest/core/errors/error-model';
import type { AnswerNotes } from '@palimpsest/protocol/answer-notes';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import { asciiJson } from '@palimpsest/core/transaction/record-codec';

/** Seed preview budgets, in compact ASCII-escaped JSON bytes. */
export const PREVIEW_MAX_BYTES = 32_768;
export const PREVIEW_MAX_FACTS = 32;
export const PREVIEW_FACT_MAX_BYTES = 2_048;
export const PREVIEW_FACTS_MAX_BYTES = 16_384;
export const PREVIEW_DIAGNOSTIC_MAX_BYTES = 16_384;

/** A preview's answer: what its schema describes, and the evidence, retry and budget fields the builder adds. */
export type PreviewAnswer = Success<OP.palimpsest_preview> &
  AnswerNotes & {
    failure_detail?: string | null;
    failed_change_id?: string | null;
    warnings?: string[];
    warning_details?: unknown[];
    warning_count?: number;
    warnings_truncated?: boolean;
    current_context?: unknown;
    retryable?: Retryable;
    total_change_count?: number;
    returned_fact_count?: number;
    change_facts_truncated?: boolean;
    change_facts_omission_reason?: string | null;
    evidence_omissions?: string[];
  };

/** The fields the budget reads and trims, of a preview or of a test's partial one. */
type Budgeted = Pick<PreviewAnswer, 'status' | 'diagnostic' | 'failure_detail' | 'failed_change_id' | 'warnings' | 'warning_details' | 'current_context' | 'returned_fact_count' | 'change_facts_truncated'> & {
  change_facts?: readonly unknown[];
};
const size = (value: unknown) => asciiJson(value).length;

/** A prefix of whole facts: at most 32, each ≤ 2,048 bytes, ≤ 16,384 bytes with the wrapper. */
function boundFacts<T extends Budgeted>(result: T): T {
  const facts = result.change_facts ?? [];
  const kept: unknown[] = [];
  let reason: string | null = null;
  for (const fact of facts) {
    if (kept.length === PREVIEW_MAX_FACTS) {
      reason = 'fact_count_limit';
      break;
    }
    if (size(fact) > PREVIEW_FACT_MAX_BYTES || size({ change_facts: [...kept, fact] }) > PREVIEW_FACTS_MAX_BYTES) {
      reason = 'fact_byte_budget';
      break;
    }
    kept.push(fact);
  }
  return {
    ...result,
    change_facts: kept,
    total_change_count: facts.length,
    returned_fact_count: kept.length,
    change_facts_truncated: kept.length < facts.length,
    change_facts_omission_reason: reason,
  };
}

/** Over 16,384 bytes, the diagnostic keeps its identity fields and failure_context; other evidence goes. */
function boundDiagnostic<T extends Budgeted>(result: T): T {
  const d = result.diagnostic;
  if (!d || size(d) <= PREVIEW_DIAGNOSTIC_MAX_BYTES) return result;
  const kept: Record<string, unknown> = {};
  const omitted: string[] = [];
  for (const [key, value] of Object.entries(d)) {
    const evidence = typeof value === 'object' && value !== null && key !== 'failure_context';
    if (evidence) omitted.push(key);
    else kept[key] = value;
  }
  if (size(kept) > PREVIEW_DIAGNOSTIC_MAX_BYTES) {
    omitted.push('failure_context');
    delete kept.failure_context;
  }
  return { ...result, diagnostic: { ...kept, evidence_omitted: omitted, evidence_omission_reason: 'diagnostic_byte_budget' } };
}

/** Omission order when the whole payload is still too large (seed order). */
const OMISSION_ORDER: [string, (r: Budgeted) => Budgeted | null][] = [
  ['near_misses', (r) => (r.diagnostic?.near_misses ? { ...r, diagnostic: { ...r.diagnostic, near_misses: undefined } } : null)],
  ['warning_details', (r) => (r.warning_details?.length ? { ...r, warning_details: [] } : null)],
  ['warnings', (r) => (r.warnings?.length ? { ...r, warnings: [] } : null)],
  ['diagnostic_evidence', (r) => (r.diagnostic ? { ...r, diagnostic: { failure_context: r.diagnostic.failure_context, code: r.diagnostic.code } } : null)],
  ['failure_detail', (r) => (r.failure_detail ? { ...r, failure_detail: null } : null)],
  ['failed_change_id', (r) => (r.failed_change_id ? { ...r, failed_change_id: null } : null)],
  ['current_context', (r) => (r.current_context ? { ...r, current_context: undefined } : null)],
];

/**
 * Bounds a preview to 32,768 bytes. Verdict, stage, validity, target id, observed version/hash and an
 * accepted after_hash are never removed; every omission is recorded in evidence_omissions.
 */
export function boundPreview<T extends Budgeted>(input: T): T & { evidence_omissions: string[] } {
  let result: T = input.status === 'accepted' ? boundFacts(input) : boundDiagnostic(input);
  const omissions: string[] = [];
  for (const [name, omit] of OMISSION_ORDER) {
    if (size({ ...result, evidence_omissions: omissions }) <= PREVIEW_MAX_BYTES) break;
    const next = omit(result);
    if (next) {
      result = JSON.parse(JSON.stringify(next));
      omissions.push(name);
    }
  }
  for (let facts = result.change_facts; facts?.length && size({ ...result, evidence_omissions: omissions }) > PREVIEW_MAX_BYTES; facts = result.change_facts) {
    const kept = facts.slice(0, -1);
    result = { ...result, change_facts: kept, returned_fact_count: kept.length, change_facts_truncated: true };
    if (!omissions.includes('trailing_facts')) omissions.push('trailing_facts');
  }
  return { ...result, status: input.status, evidence_omissions: omissions };
}
