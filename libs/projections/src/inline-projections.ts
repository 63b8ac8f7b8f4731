import type { Placement } from '@palimpsest/store/append-spec';
import type { Sql } from '@palimpsest/store/db';
import { insertAttemptSql } from './attempts.projection';
import { insertLedgerSql } from './ledger.projection';
import { contentStatements, type ContentStatements } from './content/target-content';
import type { ProjectedEvent } from './projected-event';
import { insertCheckpointSnapshotSql, insertInitialSnapshotSql } from './snapshots.projection';
import { positionSql } from './sql-params';
import { joinSql, raw, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';
import { insertTargetSql, updateTargetSql } from './target-row.projection';
import { insertWorkspaceFileSql, refreshWorkspaceFileSql, setWorkspacePublishSql } from './workspace-files.projection';
import { consumeObservationSql, insertBundleScopesSql, insertBundleSql, insertScopeObservationSql } from './observations.projection';

/**
 * The statements that bring every inline read model up to one event. They are joined into a single
 * statement of data-modifying CTEs, so one event costs one round trip whatever it touches. `inserted`:
 * the append's CTE of new rows when they ride with it (the position is read there), else null.
 */
export function statementsFor(pe: ProjectedEvent, inserted: SqlFragment | null): ContentStatements {
  const content = contentStatements(pe.event.data.target_id, pe.contentRewrite);
  return { before: content.before, inline: [...rowStatements(pe, inserted), ...content.inline] };
}

function rowStatements(pe: ProjectedEvent, inserted: SqlFragment | null): SqlFragment[] {
  const { event, streamVersion, recordedAt, stateAfter } = pe;
  const position = positionSql(pe.position, inserted);
  if (!stateAfter.exists) throw new Error(`projection of ${event.type} needs an existing target`);
  switch (event.type) {
    case 'TargetInitialized':
      return [
        insertTargetSql(stateAfter, streamVersion, position, recordedAt),
        insertInitialSnapshotSql(event.data, position, recordedAt),
      ];
    case 'ProposalAccepted': {
      const consume = consumeObservationSql(event.data, position);
      return [
        insertAttemptSql(event, position, recordedAt),
        insertLedgerSql(event.data, position, recordedAt),
        updateTargetSql(stateAfter, streamVersion, position, recordedAt, true),
        ...(consume ? [consume] : []),
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
export function combineStatements(statements: SqlFragment[]): SqlFragment {
  if (statements.length === 1) return statements[0]!;
  const ctes = statements.map((s, i) => sql`${raw(`w${i}`)} AS (${s})`);
  return sql`WITH ${joinSql(ctes, ',\n')}\nSELECT 1`;
}

/** Project events whose positions are known (rebuild, the online rebuild's follower). */
export async function projectInline(tx: Sql, events: ProjectedEvent[]): Promise<void> {
  for (const pe of events) {
    const { before, inline } = statementsFor(pe, null);
    for (const s of before) await tx.query(s.text, s.params);
    const { text, values } = combineStatements(inline).render();
    await tx.query(text, values);
  }
}

export interface AlongsideProjection {
  /** Statements to run first, on their own (chunk renumbering). */
  before: ContentStatements['before'];
  /** CTEs for the append statement; they read the position from its `inserted` CTE. */
  ctes: SqlFragment[];
}

/** What must run on its own before the event's append (a chunk renumbering), wherever the append is placed. */
export function statementsFirst(pe: ProjectedEvent): ContentStatements['before'] {
  return contentStatements(pe.event.data.target_id, pe.contentRewrite).before;
}

/**
 * The read-model writes of one event as CTEs of the append statement itself, so the event and its
 * projections cost one round trip, wherever the store places the append (alone or in a batch).
 */
export function projectionAlongside(pe: ProjectedEvent, at: Placement): AlongsideProjection {
  const { before, inline } = statementsFor({ ...pe, position: null }, at.inserted);
  return { before, ctes: inline };
}
