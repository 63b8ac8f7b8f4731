import { evolve } from '@palimpsest/core/publication/publication.decider';
import {
  PUBLICATION_EVENT_SCHEMA_VERSION,
  publicationStreamId,
  upcastPublicationEvent,
  type PublicationEvent,
} from '@palimpsest/core/publication/publication.events';
import { initialPublicationState, type ExistingJournal, type PublicationState } from '@palimpsest/core/publication/publication.state';
import type { AppendGuard } from '@palimpsest/store/append-spec';
import type { Sql } from '@palimpsest/store/db';
import type { StreamAppend } from '@palimpsest/store/event-store';
import { readStream } from '@palimpsest/store/read-stream';
import { jsonb, sql } from '@palimpsest/store/sql-fragment';

/** The journal aggregate as the store appends it: loaded by folding its stream, its decided events made appends. */

export interface JournalAt {
  state: PublicationState;
  streamVersion: number;
}

export const NEW_JOURNAL: JournalAt = { state: initialPublicationState, streamVersion: 0 };

/** Fold a journal's stream. A journal is a handful of events; the stream is its only source. */
export async function loadJournal(tx: Sql, journalId: string): Promise<JournalAt> {
  let state: PublicationState = initialPublicationState;
  const stored = await readStream(tx, publicationStreamId(journalId));
  for (const s of stored) state = evolve(state, upcastPublicationEvent(s.type, s.schemaVersion, s.data));
  return { state, streamVersion: stored.length };
}

/**
 * Decided journal events as one append at the loaded version, each with the journal right after it (what
 * the registered publication projection writes from), and the journal once it has committed.
 */
export function journalAppend(
  journalId: string,
  loaded: JournalAt,
  events: PublicationEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
): { append: StreamAppend; after: JournalAt } {
  let state = loaded.state;
  const appended = events.map((event) => {
    state = evolve(state, event);
    if (!state.exists) throw new Error(`${event.type} left no journal`);
    const after: ExistingJournal = state;
    return { type: event.type, schemaVersion: PUBLICATION_EVENT_SCHEMA_VERSION, data: event.data, metadata, recordedAt, after };
  });
  const append = { streamId: publicationStreamId(journalId), expectedVersion: loaded.streamVersion, events: appended };
  return { append, after: { state, streamVersion: loaded.streamVersion + events.length } };
}

/** One decided journal event as a rider of another aggregate's append (a target's change), and the journal once committed. */
export function publicationAppend(
  journalId: string,
  loaded: JournalAt,
  event: PublicationEvent,
  recordedAt: string,
  metadata: Record<string, unknown>,
): { spec: StreamAppend; after: JournalAt } {
  const { append, after } = journalAppend(journalId, loaded, [event], recordedAt, metadata);
  return { spec: append, after };
}

/**
 * The guard of a journal started on what its caller read before the lease: every file still holds that
 * baseline with no journal open on it, and every target is still at the version its file was planned
 * on. Refused, nothing is written and the publication reads them again under the lease.
 */
export function startGuard(files: { target_id: string; disk_sha256: string }[], targets: { target_id: string; version: number }[]): AppendGuard {
  return sql`SELECT 1 WHERE NOT EXISTS (
        SELECT 1 FROM jsonb_to_recordset(${jsonb(files)}) AS x(target_id uuid, disk_sha256 text)
         WHERE NOT EXISTS (SELECT 1 FROM workspace_files w WHERE w.target_id = x.target_id AND w.disk_sha256 = x.disk_sha256)
            OR EXISTS (SELECT 1 FROM workspace_files w WHERE w.target_id = x.target_id AND w.open_journal_id IS NOT NULL))
      AND NOT EXISTS (
        SELECT 1 FROM jsonb_to_recordset(${jsonb(targets)}) AS y(target_id uuid, version bigint)
         WHERE NOT EXISTS (SELECT 1 FROM targets t WHERE t.target_id = y.target_id AND t.version = y.version))`;
}
