import { attemptContents, attemptLogRows, targetExists, type AttemptLogRow } from '@palimpsest/projections/attempts.queries';
import { elementSentBytes, MAX_RESULT_BYTES, sentBytes } from '@palimpsest/protocol/result-bytes';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../app-context';
import { pageLimit, toIso } from '../shared/sql-values';
import { targetIdOf, notFound } from '../shared/target-lookup';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface AttemptLogInput {
  target_file_id: unknown;
  limit?: number | null;
  before_sequence?: number | null;
  status?: 'accepted' | 'rejected' | null;
  content_hash?: string | null;
  client_request_id?: string | null;
  include_content?: boolean;
  detail?: boolean;
}

/** Seed budget: returned attempt content per page, in UTF-8 bytes; the first entry with content is whole. */
export const ATTEMPT_CONTENT_PAGE_BUDGET = 1_048_576;
const INTENT_LIMIT = 256;
/** A summary's intent and failure text, in code points: enough to recognize the attempt, not to restate it. */
const SUMMARY_TEXT_LIMIT = 100;

const EMPTY = { entries: [], has_more: false, next_sequence: null };

function entryOf(r: AttemptLogRow) {
  const intentTruncated = typeof r.intent === 'string' && [...r.intent].length > INTENT_LIMIT;
  return {
    attempt_id: r.attempt_id,
    log_sequence: r.log_sequence,
    sequence: r.log_sequence,
    status: r.status,
    protocol_version: r.protocol_version,
    runtime_version: r.runtime_version,
    attempt_content_hash: r.content_hash,
    request_fingerprint: r.request_fingerprint,
    client_request_id: r.client_request_id,
    expected_target_version: r.expected_target_version,
    expected_current_hash: r.expected_current_hash,
    before_version: r.before_version,
    after_version: r.after_version,
    before_hash: r.before_hash,
    after_hash: r.after_hash,
    failure_reason: r.failure_reason,
    failure_detail: r.failure_detail,
    failed_change_id: r.failed_change_id,
    validation_stage: r.validation_stage,
    parent_attempt_id: r.parent_attempt_id,
    regeneration_attempt: r.regeneration_attempt,
    attempt: r.regeneration_attempt,
    source: r.source,
    diagnostic: r.diagnostic,
    intent: intentTruncated ? [...r.intent!].slice(0, INTENT_LIMIT).join('') : r.intent,
    intent_truncated: intentTruncated,
    editing_cycle_id: r.editing_cycle_id,
    created_at: toIso(r.created_at),
  };
}

const clip = (text: string | null, limit: number): string | null => {
  if (text === null) return null;
  const points = [...text];
  return points.length > limit ? `${points.slice(0, limit - 1).join('')}…` : text;
};

/**
 * What an agent needs to act on an attempt: which one, what it did to the version, why it was refused,
 * and what it was for. The full entry (detail: true) adds the guards, hashes, lineage and diagnostic.
 */
function summaryOf(r: AttemptLogRow) {
  const code = r.diagnostic?.code;
  return {
    attempt_id: r.attempt_id,
    log_sequence: r.log_sequence,
    status: r.status,
    before_version: r.before_version,
    after_version: r.after_version,
    code: r.status === 'rejected' ? (typeof code === 'string' ? code : r.failure_reason) : null,
    client_request_id: r.client_request_id,
    source: r.source,
    intent: clip(r.intent, SUMMARY_TEXT_LIMIT),
    summary:
      r.status === 'accepted'
        ? `accepted: version ${r.before_version} → ${r.after_version}`
        : `rejected at version ${r.before_version}: ${clip(r.failure_detail ?? r.failure_reason ?? 'no detail', SUMMARY_TEXT_LIMIT)}`,
    created_at: toIso(r.created_at),
  };
}

/** An entry of a page (summary or detail); with include_content, its submitted record or why it was left out. */
type PageEntry = (ReturnType<typeof entryOf> | ReturnType<typeof summaryOf>) & {
  attempt_content?: string | null;
  attempt_content_omitted?: 'result_byte_budget' | 'page_byte_budget' | null;
};

/** Newest-first page; fetches limit+1 after all filters, so the cost is O(page), not O(history). */
export async function getAttemptLog(ctx: AppContext, input: AttemptLogInput): Promise<Result<OP.palimpsest_get_attempt_log>> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return { ...error, ...EMPTY };
  if (!(await targetExists(ctx.db, targetId))) return { ...notFound(targetId), ...EMPTY };
  const limit = pageLimit(input.limit);
  const filter = {
    beforeSequence: input.before_sequence,
    status: input.status,
    contentHash: input.content_hash,
    clientRequestId: input.client_request_id,
  };
  const rows = await attemptLogRows(ctx.db, targetId, filter, { rows: limit + 1, intentChars: INTENT_LIMIT + 1 });
  const page = rows.slice(0, limit);
  const entries = page.map((row): PageEntry => (input.detail ? entryOf(row) : summaryOf(row)));
  if (input.include_content) await attachContent(ctx, page, entries);
  const kept = withinResultBudget(targetId, entries);
  const hasMore = rows.length > kept.length;
  return {
    status: 'ok' as const,
    target_file_id: targetId,
    entries: kept,
    has_more: hasMore,
    next_sequence: hasMore ? page[kept.length - 1].log_sequence : null,
  };
}

/**
 * The newest entries that fit MAX_RESULT_BYTES as sent (result-bytes.ts); the rest wait for the next
 * page. The first entry always stays: past the budget it loses its content (attempt_content_omitted).
 */
function withinResultBudget(targetId: string, entries: PageEntry[]): PageEntry[] {
  let left = MAX_RESULT_BYTES - sentBytes({ status: 'ok', target_file_id: targetId, entries: [], has_more: true, next_sequence: Number.MAX_SAFE_INTEGER });
  const kept: PageEntry[] = [];
  for (const entry of entries) {
    const cost = elementSentBytes(entry);
    if (cost > left) {
      if (kept.length === 0) kept.push({ ...entry, attempt_content: null, attempt_content_omitted: 'result_byte_budget' });
      break;
    }
    left -= cost;
    kept.push(entry);
  }
  return kept;
}

/** Content lives in the event; only the entries inside the byte budget are fetched at all. */
async function attachContent(ctx: AppContext, page: AttemptLogRow[], entries: PageEntry[]) {
  let used = 0;
  const wanted: number[] = [];
  page.forEach((row, i) => {
    if (i === 0 || used + row.content_bytes <= ATTEMPT_CONTENT_PAGE_BUDGET) {
      used += row.content_bytes;
      wanted.push(row.log_sequence);
    }
  });
  const byPosition = await attemptContents(ctx.db, wanted);
  page.forEach((row, i) => {
    const content = byPosition.get(row.log_sequence);
    entries[i].attempt_content = content ?? null;
    entries[i].attempt_content_omitted = content === undefined ? 'page_byte_budget' : null;
  });
}
