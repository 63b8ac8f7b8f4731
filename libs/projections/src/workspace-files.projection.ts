import {
  PUBLICATION_EVENT_SCHEMA_VERSION,
  publicationStreamId,
  type PublicationResolvedData,
} from '@palimpsest/core/publication/publication.events';
import type { WorkspaceFileBoundData, WorkspaceFileRefreshedData } from '@palimpsest/core/target/target.events';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import type { SqlParams } from './sql-params';

/** The workspace_files row of a WorkspaceFileBound event: which file a target was imported from; its bytes are the first baseline. */
export function insertWorkspaceFileSql(p: SqlParams, d: WorkspaceFileBoundData, position: string) {
  return `INSERT INTO workspace_files (target_id, path, root_dev, root_ino, file_dev, file_ino, source_sha256,
      source_line_ending_style, log_sequence, bound_at, disk_sha256, disk_log_sequence)
    VALUES (${p.add(d.target_id)}, ${p.add(d.path)}, ${p.add(d.root_dev)}, ${p.add(d.root_ino)}, ${p.add(d.file_dev)},
      ${p.add(d.file_ino)}, ${p.add(d.source_sha256)}, ${p.add(d.source_line_ending_style)}, ${position}, ${p.add(d.bound_at)},
      ${p.add(d.source_sha256)}, ${position})`;
}

/** A WorkspaceFileRefreshed event: the file's new baseline. The journal columns are the journal's to close (resolvePendingPublication). */
export function refreshWorkspaceFileSql(p: SqlParams, d: WorkspaceFileRefreshedData, position: string) {
  return `UPDATE workspace_files SET disk_sha256 = ${p.add(d.disk_sha256)}, disk_log_sequence = ${position}
    WHERE target_id = ${p.add(d.target_id)}::uuid`;
}

/**
 * Close a pending_reconcile journal whose file a refresh has just taken in: PublicationResolved appended
 * to the journal's stream at its current version, the journal row resolved and the file's journal columns
 * cleared, inside the caller's transaction (which holds the target's row lock).
 *
 * Interim: the journal aggregate's own commit (libs/projections/src/publications/) should own this append
 * and its read-model writes; route the refresh through it once it exists.
 */
export async function resolvePendingPublication(tx: Sql, d: PublicationResolvedData): Promise<void> {
  const stream = publicationStreamId(d.journal_id);
  const { rows } = await tx.query<{ v: number }>('SELECT COALESCE(max(stream_version), 0)::int AS v FROM events WHERE stream_id = $1', [stream]);
  const version = Number(rows[0]!.v);
  const event = { type: 'PublicationResolved', schemaVersion: PUBLICATION_EVENT_SCHEMA_VERSION, data: d, metadata: { command: 'RefreshWorkspaceFile' }, recordedAt: d.resolved_at };
  const appended = await appendToStream(tx, stream, version, [event], { notifyChannel: null });
  await tx.query(
    `UPDATE publication_journals SET state = 'resolved', finished_at = $2, stream_version = $3, log_sequence = $4 WHERE journal_id = $1::uuid`,
    [d.journal_id, d.resolved_at, appended.nextExpectedVersion, appended.positions[0]],
  );
  await tx.query(
    `UPDATE workspace_files SET open_journal_id = NULL, journal_state = NULL WHERE target_id = $1::uuid AND open_journal_id = $2::uuid`,
    [d.target_id, d.journal_id],
  );
}
