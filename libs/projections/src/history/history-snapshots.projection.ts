import type { ProposalAcceptedData } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import { HISTORY_SNAPSHOT_EVERY } from '@palimpsest/core/history/text-as-of';
import { sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

export const HISTORY_TABLES = ['history_snapshots'] as const;

/**
 * Every HISTORY_SNAPSHOT_EVERY-th version, the text the acceptance left, written with it: an as-of read
 * then folds fewer than that many acceptances' effects. Null for every other acceptance.
 */
export function insertHistorySnapshotSql(d: ProposalAcceptedData, state: TargetState, position: SqlFragment): SqlFragment | null {
  // The state is the append's last: a copy is kept only when it is this acceptance's text (it always is: no command decides two).
  if (d.after_version % HISTORY_SNAPSHOT_EVERY !== 0 || !state.exists || state.current_hash !== d.after_hash) return null;
  return sql`INSERT INTO history_snapshots (target_id, version, after_hash, log_sequence, body)
    VALUES (${d.target_id}, ${d.after_version}, ${d.after_hash}, ${position}, ${state.content})`;
}
