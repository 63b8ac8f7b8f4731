import { PUBLICATION_EVENT_TYPES, type PublicationEvent } from '@palimpsest/core/publication/publication.events';
import type { ExistingJournal } from '@palimpsest/core/publication/publication.state';
import type { InlineProjection, ProjectedEvent } from '@palimpsest/store/inline-projection';
import { joinSql, jsonb, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

/**
 * The journal read models, brought up to one event: the publication_journals row from the state after
 * it, and each bound file's workspace_files columns. A file's baseline (disk_sha256) moves only forward
 * in log order (disk_log_sequence), and a journal clears only the journal columns it set, so a rebuild
 * that replays target and publication streams one after the other ends where the live models did.
 */

/** A journal event with the journal right after it. */
export type ProjectedPublicationEvent = ProjectedEvent<PublicationEvent, ExistingJournal>;

export const PUBLICATION_TABLES = ['publication_journals'] as const;

function journalRowSql(pe: ProjectedPublicationEvent, position: SqlFragment, appended: SqlFragment): SqlFragment {
  const s = pe.after;
  const outcomes = s.state === 'committed' ? s.installed : s.failed;
  const files = s.files.map((f) => ({ ...f, outcome: outcomes.find((o) => o.target_id === f.target_id) ?? null }));
  const values = [
    sql`${s.journal_id}`, sql`${s.kind}`, sql`${s.request_id}`, sql`${s.candidate_id}`, sql`${s.state}`, sql`${s.reason}`, sql`${s.detail}`,
    jsonb(files), sql`${s.reconciled}`, sql`${s.started_at}`, sql`${s.finished_at}`, sql`${pe.streamVersion}`, position,
  ];
  return sql`INSERT INTO publication_journals (journal_id, kind, request_id, candidate_id, state, reason, detail, files, reconciled,
            started_at, finished_at, stream_version, log_sequence)
          SELECT ${joinSql(values)} WHERE ${appended}
          ON CONFLICT (journal_id) DO UPDATE SET state = EXCLUDED.state, reason = EXCLUDED.reason, detail = EXCLUDED.detail,
            files = EXCLUDED.files, reconciled = EXCLUDED.reconciled, finished_at = EXCLUDED.finished_at,
            stream_version = EXCLUDED.stream_version, log_sequence = EXCLUDED.log_sequence`;
}

function fileColumnsSql(pe: ProjectedPublicationEvent, position: SqlFragment, appended: SqlFragment): SqlFragment | null {
  const { event, after: s } = pe;
  const journal = sql`${s.journal_id}`;
  const ofJournal = sql`open_journal_id = ${journal}::uuid`;
  const targets = () => sql`target_id IN (SELECT jsonb_array_elements_text(${jsonb(s.files.map((f) => f.target_id))})::uuid)`;
  switch (event.type) {
    case 'PublicationStarted':
      return sql`UPDATE workspace_files SET open_journal_id = ${journal}::uuid, journal_state = 'started' WHERE ${targets()} AND ${appended}`;
    case 'PublicationCompleted': {
      // Each file now holds the text of the target version the journal planned for it.
      const installed = event.data.files.map((f) => ({ target_id: f.target_id, disk_sha256: f.disk_sha256, target_version: s.files.find((p) => p.target_id === f.target_id)?.target_version ?? null }));
      return sql`UPDATE workspace_files w SET
                disk_sha256 = CASE WHEN w.disk_log_sequence < ${position} THEN x.disk_sha256 ELSE w.disk_sha256 END,
                disk_version = CASE WHEN w.disk_log_sequence < ${position} THEN COALESCE(x.target_version, w.disk_version) ELSE w.disk_version END,
                disk_log_sequence = GREATEST(w.disk_log_sequence, ${position}),
                open_journal_id = CASE WHEN w.${ofJournal} THEN NULL ELSE w.open_journal_id END,
                journal_state = CASE WHEN w.${ofJournal} THEN NULL ELSE w.journal_state END
              FROM jsonb_to_recordset(${jsonb(installed)}) AS x(target_id uuid, disk_sha256 text, target_version bigint)
              WHERE w.target_id = x.target_id AND ${appended}`;
    }
    case 'PublicationFailed':
      return event.data.state === 'pending_reconcile'
        ? sql`UPDATE workspace_files SET journal_state = 'pending_reconcile' WHERE ${targets()} AND ${ofJournal} AND ${appended}`
        : sql`UPDATE workspace_files SET open_journal_id = NULL, journal_state = NULL WHERE ${targets()} AND ${ofJournal} AND ${appended}`;
    case 'PublicationResolved':
      return sql`UPDATE workspace_files SET open_journal_id = NULL, journal_state = NULL WHERE ${targets()} AND ${ofJournal} AND ${appended}`;
  }
}

/**
 * Registered with the store for every journal event. Riding with its append, it writes nothing when the
 * append inserted nothing (a stale version), so that the store reports the conflict instead of a read
 * model refusing a missing position.
 */
export const publicationProjection: InlineProjection<PublicationEvent, ExistingJournal> = {
  name: 'publications',
  canHandle: PUBLICATION_EVENT_TYPES,
  handle: (pe) =>
    [journalRowSql(pe, pe.position, pe.appended), fileColumnsSql(pe, pe.position, pe.appended)].filter((s): s is SqlFragment => s !== null),
};
