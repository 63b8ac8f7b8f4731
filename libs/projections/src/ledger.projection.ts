import type { ProposalAcceptedData } from '@palimpsest/core/target/target.events';
import { jsonb, raw, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

/** Room for 99,999 changes per transaction; the core caps transactions at 10,000 changes. */
export const LEDGER_SEQUENCE_STRIDE = 100000;


/**
 * One INSERT for every change of an acceptance, from a JSON array (one round trip whatever the count).
 * The change's fact stays in the event: the ledger reads it from there by change_index.
 */
export function insertLedgerSql(d: ProposalAcceptedData, position: SqlFragment, recordedAt: string): SqlFragment {
  const rows = d.change_facts.map((fact, i) => {
    const note = d.annotations[i];
    const rationale = note?.rationale ?? null;
    return {
      change_index: fact.change_index,
      change_id: fact.change_id,
      intent: rationale ?? d.intent,
      rationale,
      risk: note?.risk ?? null,
    };
  });
  return sql`INSERT INTO ledger (ledger_sequence, attempt_id, log_sequence, target_id, editing_cycle_id, before_version,
      after_version, change_index, change_id, intent, transaction_intent, rationale, risk, origin, created_at)
    SELECT ${position} * ${raw(String(LEDGER_SEQUENCE_STRIDE))} + x.change_index, ${d.attempt_id}::uuid, ${position}, ${d.target_id}::uuid,
      ${d.editing_cycle_id}::uuid, ${d.before_version}::bigint, ${d.after_version}::bigint,
      x.change_index, x.change_id, x.intent, ${d.intent}::text, x.rationale, x.risk, 'typed',
      ${recordedAt}::timestamptz
    FROM jsonb_to_recordset(${jsonb(rows)}) AS x(change_index integer, change_id text,
      intent text, rationale text, risk text)`;
}
