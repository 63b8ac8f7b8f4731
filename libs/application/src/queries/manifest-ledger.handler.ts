import { activeEditingCycle, ledgerRows, type LedgerRow } from '@palimpsest/projections/ledger.queries';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../app-context';
import { pageLimit, toIso } from '../shared/sql-values';
import { targetIdOf, notFound } from '../shared/target-lookup';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface ManifestLedgerInput {
  target_file_id: unknown;
  include_previous_cycles?: boolean;
  limit?: number | null;
  before_sequence?: number | null;
}

const EMPTY = { entries: [], has_more: false, next_sequence: null };

function entryOf(r: LedgerRow) {
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
export async function getManifestLedger(ctx: AppContext, input: ManifestLedgerInput): Promise<Result<OP.palimpsest_get_manifest_ledger>> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return { ...error, ...EMPTY };
  const target = await activeEditingCycle(ctx.db, targetId);
  if (!target) return { ...notFound(targetId), ...EMPTY };
  const limit = pageLimit(input.limit);
  const filter = {
    editingCycleId: input.include_previous_cycles ? undefined : target.cycle,
    beforeSequence: input.before_sequence,
  };
  const rows = await ledgerRows(ctx.db, targetId, filter, { rows: limit + 1 });
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
