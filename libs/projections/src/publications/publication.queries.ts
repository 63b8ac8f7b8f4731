import type { PublicationKind } from '@palimpsest/core/publication/publication.events';
import type { JournalState } from '@palimpsest/core/publication/publication.state';
import type { Sql } from '@palimpsest/store/db';
import { FILE_COLUMNS, type WorkspaceFileRow } from '../workspace-files.queries';

export interface JournalRow {
  journal_id: string;
  kind: PublicationKind;
  request_id: string | null;
  candidate_id: string | null;
  state: JournalState;
  started_at: Date;
}

/** Journals with no outcome yet (started) — what start-up reconciles — oldest first, bounded. */
export async function openJournals(sql: Sql, limit = 1000): Promise<JournalRow[]> {
  const { rows } = await sql.query<JournalRow>(
    `SELECT journal_id::text, kind, request_id, candidate_id::text, state, started_at FROM publication_journals
      WHERE state = 'started' ORDER BY started_at, journal_id LIMIT $1`,
    [limit],
  );
  return rows;
}

/** The planned files of the most recently settled journals (committed, rolled back or resolved), newest first. */
export async function settledJournalsWithFiles(sql: Sql, limit: number): Promise<{ journal_id: string; files: unknown[] }[]> {
  const { rows } = await sql.query<{ journal_id: string; files: unknown[] }>(
    `SELECT journal_id::text, files FROM publication_journals
      WHERE state IN ('committed', 'rolled_back', 'resolved') ORDER BY log_sequence DESC LIMIT $1`,
    [limit],
  );
  return rows;
}

/** The journal a change_apply request_id started, newest first (a rolled-back attempt can be followed by another). */
export async function journalsOfRequest(sql: Sql, requestId: string): Promise<JournalRow[]> {
  const { rows } = await sql.query<JournalRow>(
    `SELECT journal_id::text, kind, request_id, candidate_id::text, state, started_at FROM publication_journals
      WHERE request_id = $1 ORDER BY log_sequence DESC`,
    [requestId],
  );
  return rows;
}

/** One digest per journal over its read-model row, keyed `publication:<id>` (rebuild compares them). */
export async function publicationDigests(sql: Sql): Promise<Map<string, string>> {
  const { rows } = await sql.query<{ key: string; digest: string }>(
    `SELECT 'publication:' || j.journal_id::text AS key, md5(row_to_json(j)::text) AS digest FROM publication_journals j`,
  );
  return new Map(rows.map((r) => [r.key, r.digest]));
}

/** The bound files of these targets in path order: what a publication reads under its lease (baselines, open journals). */
export async function filesUnderLease(sql: Sql, targetIds: readonly string[]): Promise<WorkspaceFileRow[]> {
  if (targetIds.length === 0) return [];
  const { rows } = await sql.query<WorkspaceFileRow>(`SELECT ${FILE_COLUMNS} FROM workspace_files w WHERE w.target_id = ANY($1::uuid[]) ORDER BY w.path`, [targetIds]);
  return rows;
}

