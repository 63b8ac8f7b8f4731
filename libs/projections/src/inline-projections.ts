import { TARGET_EVENT_TYPES, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { Sql } from '@palimpsest/store/db';
import type { EventLike, InlineProjection, ProjectedEvent } from '@palimpsest/store/inline-projection';
import type { ChunkRewrite } from './content/chunk-layout';
import { insertAttemptSql } from './attempts.projection';
import { insertLedgerSql } from './ledger.projection';
import { contentStatements } from './content/target-content';
import { insertCheckpointSnapshotSql, insertInitialSnapshotSql } from './snapshots.projection';
import { joinSql, raw, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';
import { insertTargetSql, updateTargetSql } from './target-row.projection';
import { insertWorkspaceFileSql, refreshWorkspaceFileSql, setWorkspacePublishSql } from './workspace-files.projection';
import { insertHistorySnapshotSql } from './history/history-snapshots.projection';
import { consumeObservationSql, insertBundleScopesSql, insertBundleSql, insertScopeObservationSql } from './observations.projection';

/** What the target's writer knows right after an event: the state, and how the stored chunks change (null: the text did not). */
export interface TargetAfter {
  state: TargetState;
  rewrite: ChunkRewrite | null;
}

export type ProjectedTargetEvent = ProjectedEvent<TargetEvent, TargetAfter>;

/**
 * The target's inline read models (target row, chunks, attempts, ledger, snapshots, workspace files,
 * observations), registered with the store for every target event. Its writes ride with the event's
 * append as CTEs, so one event costs one round trip whatever it touches; a chunk renumbering runs first.
 */
export const targetProjection: InlineProjection<TargetEvent, TargetAfter> = {
  name: 'targets',
  canHandle: TARGET_EVENT_TYPES,
  before: (pe) => contentStatements(pe.event.data.target_id, pe.after.rewrite).before,
  handle: (pe) => [...rowStatements(pe), ...contentStatements(pe.event.data.target_id, pe.after.rewrite).inline],
};

function rowStatements(pe: ProjectedTargetEvent): SqlFragment[] {
  const { event, streamVersion, recordedAt, position } = pe;
  const stateAfter = pe.after.state;
  if (!stateAfter.exists) throw new Error(`projection of ${event.type} needs an existing target`);
  switch (event.type) {
    case 'TargetInitialized':
      return [
        insertTargetSql(stateAfter, streamVersion, position, recordedAt),
        insertInitialSnapshotSql(event.data, position, recordedAt),
      ];
    case 'ProposalAccepted': {
      const consume = consumeObservationSql(event.data, position);
      const snapshot = insertHistorySnapshotSql(event.data, stateAfter, position);
      return [
        insertAttemptSql(event, position, recordedAt),
        insertLedgerSql(event.data, position, recordedAt),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, true),
        ...(consume ? [consume] : []),
        ...(snapshot ? [snapshot] : []),
      ];
    }
    case 'ProposalRejected':
      return [
        insertAttemptSql(event, position, recordedAt),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'CheckpointSaved':
      return [
        insertCheckpointSnapshotSql(event.data, position, recordedAt),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'WorkspaceFileBound':
      return [
        insertWorkspaceFileSql(event.data, position, stateAfter.version),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'WorkspaceFileRefreshed':
      return [
        refreshWorkspaceFileSql(event.data, position, stateAfter.version),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'WorkspacePublishSet':
      return [
        setWorkspacePublishSql(event.data),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'ScopeObserved':
      return [
        insertScopeObservationSql(event.data, position),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'BundleObserved':
      return [
        insertBundleSql(event.data, position),
        insertBundleScopesSql(event.data, position),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, false),
      ];
  }
}

/** Several writes as one statement of data-modifying CTEs. */
function combineStatements(statements: SqlFragment[]): SqlFragment {
  if (statements.length === 1) return statements[0]!;
  const ctes = statements.map((s, i) => sql`${raw(`w${i}`)} AS (${s})`);
  return sql`WITH ${joinSql(ctes, ',\n')}\nSELECT 1`;
}

/** Project events whose positions are known (rebuild, the online rebuild's follower): the writes a commit would ride, one statement each. */
export async function projectKnown<E extends EventLike, After>(tx: Sql, projection: InlineProjection<E, After>, events: ProjectedEvent<E, After>[]): Promise<void> {
  for (const pe of events) {
    for (const s of projection.before?.(pe) ?? []) {
      const { text, values } = s.render();
      await tx.query(text, values);
    }
    const writes = projection.handle(pe);
    if (writes.length === 0) continue;
    const { text, values } = combineStatements(writes).render();
    await tx.query(text, values);
  }
}
