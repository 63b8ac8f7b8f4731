import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';
import { SqlParams } from './sql-params';

/** Reads of the manifest ledger (written by ledger.projection.ts). */

export interface LedgerRow {
  ledger_sequence: number;
  attempt_id: string;
  log_sequence: number;
  before_version: number;
  after_version: number;
  editing_cycle_id: string;
  change_index: number;
  change_id: string;
  intent: string | null;
  transaction_intent: string | null;
  rationale: string | null;
  risk: string | null;
  origin: string;
  /** The change's fact, as the acceptance recorded it. */
  derived: Record<string, unknown>;
  created_at: Date;
}

export interface LedgerFilter {
  /** Only this editing cycle's changes; absent: every cycle's. */
  editingCycleId?: string | null;
  beforeSequence?: number | null;
}

/** The target's active editing cycle, or null when there is no such target. */
export async function activeEditingCycle(sql: Sql, targetId: string): Promise<{ cycle: string | null } | null> {
  const { rows } = await sql.query<{ cycle: string | null }>(
    'SELECT active_editing_cycle_id::text AS cycle FROM targets WHERE target_id = $1',
    [targetId],
  );
  return rows[0] ?? null;
}

/** A ledger entry's fact: the acceptance event's change fact with the entry's change_index. */
export const LEDGER_FACT =
  `(SELECT f FROM jsonb_array_elements(e.data->'change_facts') f WHERE (f->>'change_index')::int = l.change_index)`;

/** A target's ledger entries, newest first: at most `rows` of them. */
export async function ledgerRows(sql: Sql, targetId: string, filter: LedgerFilter, page: { rows: number }): Promise<LedgerRow[]> {
  const p = new SqlParams();
  const where = [`target_id = ${p.add(targetId)}`];
  if (filter.editingCycleId !== undefined) where.push(`editing_cycle_id = ${p.add(filter.editingCycleId)}`);
  if (filter.beforeSequence != null) where.push(`ledger_sequence < ${p.add(filter.beforeSequence)}`);
  const { rows } = await sql.query<LedgerRow>(
    `SELECT l.ledger_sequence, l.attempt_id::text AS attempt_id, l.log_sequence, l.before_version, l.after_version,
            l.editing_cycle_id::text AS editing_cycle_id, l.change_index, l.change_id, l.intent, l.transaction_intent,
            l.rationale, l.risk, l.origin, ${LEDGER_FACT} AS derived, l.created_at
       FROM (SELECT * FROM ledger WHERE ${where.join(' AND ')} ORDER BY ledger_sequence DESC LIMIT ${p.add(page.rows)}) l
       CROSS JOIN LATERAL ${everyEventWhere('global_position = l.log_sequence')} e
      ORDER BY l.ledger_sequence DESC`,
    p.values,
  );
  return rows;
}
