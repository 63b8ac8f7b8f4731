import type { Placement } from '@palimpsest/store/append-spec';
import type { Sql } from '@palimpsest/store/db';
import { insertAttemptSql } from './attempts.projection';
import { insertLedgerSql } from './ledger.projection';
import { contentStatements, type ContentStatements } from './content/target-content';
import type { ProjectedEvent } from './projected-event';
import { insertCheckpointSnapshotSql, insertInitialSnapshotSql } from './snapshots.projection';
import { positionSql, SqlParams } from './sql-params';
import { insertTargetSql, updateTargetSql } from './target-row.projection';
import { insertWorkspaceFileSql, refreshWorkspaceFileSql, setWorkspacePublishSql } from './workspace-files.projection';
import { consumeObservationSql, insertBundleScopesSql, insertBundleSql, insertScopeObservationSql } from './observations.projection';

/**
 * The statements that bring every inline read model up to one event. They are joined into a single
 * statement of data-modifying CTEs, so one event costs one round trip whatever it touches.
 */
export function statementsFor(p: SqlParams, pe: ProjectedEvent, insertedCte?: string): ContentStatements {
  const content = contentStatements(p, pe.event.data.target_id, pe.contentRewrite);
  return { before: content.before, inline: [...rowStatements(p, pe, insertedCte), ...content.inline] };
}

function rowStatements(p: SqlParams, pe: ProjectedEvent, insertedCte?: string): string[] {
  const { event, streamVersion, recordedAt, stateAfter } = pe;
  const position = positionSql(p, pe.position, insertedCte);
  if (!stateAfter.exists) throw new Error(`projection of ${event.type} needs an existing target`);
  switch (event.type) {
    case 'TargetInitialized':
      return [
        insertTargetSql(p, stateAfter, streamVersion, position, recordedAt),
        insertInitialSnapshotSql(p, event.data, position, recordedAt),
      ];
    case 'ProposalAccepted': {
      const consume = consumeObservationSql(p, event.data, position);
      return [
        insertAttemptSql(p, event, position, recordedAt),
        insertLedgerSql(p, event.data, position, recordedAt),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, true),
        ...(consume ? [consume] : []),
      ];
    }
    case 'ProposalRejected':
      return [
        insertAttemptSql(p, event, position, recordedAt),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'CheckpointSaved':
      return [
        insertCheckpointSnapshotSql(p, event.data, position, recordedAt),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'WorkspaceFileBound':
      return [
        insertWorkspaceFileSql(p, event.data, position, stateAfter.version),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'WorkspaceFileRefreshed':
      return [
        refreshWorkspaceFileSql(p, event.data, position, stateAfter.version),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'WorkspacePublishSet':
      return [
        setWorkspacePublishSql(p, event.data),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'ScopeObserved':
      return [
        insertScopeObservationSql(p, event.data, position),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, false),
      ];
    case 'BundleObserved':
      return [
        insertBundleSql(p, event.data, position),
        insertBundleScopesSql(p, event.data, position),
        updateTargetSql(p, stateAfter, streamVersion, position, recordedAt, false),
      ];
  }
}

export function combineStatements(statements: string[]): string {
  if (statements.length === 1) return statements[0];
  const ctes = statements.map((s, i) => `w${i} AS (${s})`).join(',\n');
  return `WITH ${ctes}\nSELECT 1`;
}

export async function projectInline(tx: Sql, events: ProjectedEvent[]): Promise<void> {
  for (const pe of events) {
    const p = new SqlParams();
    const { before, inline } = statementsFor(p, pe);
    for (const s of before) await tx.query(s.text, s.params);
    await tx.query(combineStatements(inline), p.values);
  }
}

export interface AlongsideProjection {
  /** Statements to run first, on their own (chunk renumbering). */
  before: ContentStatements['before'];
  /** CTEs for the append statement; they read the position from its `inserted` CTE. */
  ctes: string[];
  values: unknown[];
}

/** What must run on its own before the event's append (a chunk renumbering), wherever the append is placed. */
export function statementsFirst(pe: ProjectedEvent): ContentStatements['before'] {
  return contentStatements(new SqlParams(), pe.event.data.target_id, pe.contentRewrite).before;
}

/**
 * The read-model writes of one event as CTEs of the append statement itself, so the event and its
 * projections cost one round trip, wherever the store places the append (alone or in a batch).
 */
export function projectionAlongside(pe: ProjectedEvent, at: Placement): AlongsideProjection {
  const p = new SqlParams(at.paramOffset);
  const { before, inline } = statementsFor(p, { ...pe, position: null }, at.inserted);
  return { before, ctes: inline, values: p.values };
}
