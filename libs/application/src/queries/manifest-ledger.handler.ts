import type { AppContext } from '../app-context';
import { pageLimit, toIso } from '../shared/sql-values';
import { targetIdOf, notFound } from '../shared/target-lookup';

export interface ManifestLedgerInput {
  target_file_id: unknown;
  include_previous_cycles?: boolean;
  limit?: number | null;
  before_sequence?: number | null;
}

const EMPTY = { entries: [], has_more: false, next_sequence: null };

function entryOf(r: Record<string, any>) {
  return {
    ledger_sequence: r.ledger_sequence,
    attempt_id: r.attempt_id,
    log_sequence: r.log_sequence,
    before_version: r.before_version,
    after_version: r.after_version,
    editing_cycle_id: r.editing_cycle_id,
    change_index: r.change_index,
    change_id: r.change_id,
    intent: r.intent,
    transaction_intent: r.transaction_intent,
    rationale: r.rationale,
    input_state: null,
    output_state: null,
    affected_region: null,
    user_visible_change: null,
    risk: r.risk,
    origin: r.origin,
    derived: r.derived,
    created_at: toIso(r.created_at),
  };
}

/** Accepted changes, oldest-first within the newest page; the default covers the active editing cycle. */
export async function getManifestLedger(ctx: AppContext, input: ManifestLedgerInput) {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return { ...error, ...EMPTY };
  const target = await ctx.db.query(
    'SELECT active_editing_cycle_id::text AS cycle FROM targets WHERE target_id = $1',
    [targetId],
  );
  if (!target.rows.length) return { ...notFound(targetId), ...EMPTY };
  const limit = pageLimit(input.limit);
  const params: unknown[] = [targetId];
  const where = ['target_id = $1'];
  if (!input.include_previous_cycles) {
    params.push(target.rows[0].cycle);
    where.push(`editing_cycle_id = $${params.length}`);
  }
  if (input.before_sequence != null) {
    params.push(input.before_sequence);
    where.push(`ledger_sequence < $${params.length}`);
  }
  params.push(limit + 1);
  const { rows } = await ctx.db.query(
    `SELECT ledger_sequence, attempt_id::text AS attempt_id, log_sequence, before_version, after_version,
            editing_cycle_id::text AS editing_cycle_id, change_index, change_id, intent, transaction_intent, rationale,
            risk, origin, derived, created_at
       FROM ledger WHERE ${where.join(' AND ')}
      ORDER BY ledger_sequence DESC LIMIT $${params.length}`,
    params,
  );
  const page = rows.slice(0, limit);
  const hasMore = rows.length > limit;
  return {
    status: 'ok' as const,
    target_file_id: targetId,
    entries: page.map(entryOf).reverse(),
    has_more: hasMore,
    next_sequence: hasMore ? page[page.length - 1].ledger_sequence : null,
  };
}
