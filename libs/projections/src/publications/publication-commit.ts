import { evolve } from '@palimpsest/core/publication/publication.decider';
import {
  PUBLICATION_EVENT_SCHEMA_VERSION,
  publicationStreamId,
  upcastPublicationEvent,
  type PublicationEvent,
} from '@palimpsest/core/publication/publication.events';
import { initialPublicationState, type PublicationState } from '@palimpsest/core/publication/publication.state';
import type { AppendGuard } from '@palimpsest/store/append-spec';
import type { RidingAppend } from '../target-commit';
import { appendToStream, type AppendOptions } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { publicationAlongside } from './publication.projection';
import { jsonb, sql } from '@palimpsest/store/sql-fragment';

/** The journal aggregate's unit of work, in the caller's transaction: append decided events, bring the journal read models up to them. */

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
 * Append decided events at the loaded version (a concurrent writer fails the append), each with its
 * projections in the same statement; returns the journal after. `guard` (one event only): the append
 * is refused (StreamVersionConflictError, nothing written) unless the guard's row shows.
 */
export async function commitPublicationEvents(
  tx: Sql,
  journalId: string,
  loaded: JournalAt,
  events: PublicationEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
  guard?: AppendOptions['guard'],
): Promise<JournalAt> {
  if (events.length === 0) return loaded;
  if (guard && events.length !== 1) throw new RangeError('a guarded journal append carries one event');
  let state = loaded.state;
  let streamVersion = loaded.streamVersion;
  for (const event of events) {
    state = evolve(state, event);
    if (!state.exists) throw new Error(`${event.type} left no journal`);
    const stored = { type: event.type, schemaVersion: PUBLICATION_EVENT_SCHEMA_VERSION, data: event.data, metadata, recordedAt };
    const alongside = publicationAlongside({ event, position: null, streamVersion: streamVersion + 1, stateAfter: state });
    streamVersion = (await appendToStream(tx, publicationStreamId(journalId), streamVersion, [stored], { alongside, guard })).nextExpectedVersion;
  }
  return { state, streamVersion };
}

/**
 * One decided journal event as an append that rides with another aggregate's (commitTargetEvents'
 * riders): the spec, and the journal once it has committed. No NOTIFY rides with it: wake its stream after commit.
 */
export function publicationAppend(
  journalId: string,
  loaded: JournalAt,
  event: PublicationEvent,
  recordedAt: string,
  metadata: Record<string, unknown>,
): { spec: RidingAppend; after: JournalAt } {
  const state = evolve(loaded.state, event);
  if (!state.exists) throw new Error(`${event.type} left no journal`);
  const streamVersion = loaded.streamVersion + 1;
  const stored = { type: event.type, schemaVersion: PUBLICATION_EVENT_SCHEMA_VERSION, data: event.data, metadata, recordedAt };
  const alongside = publicationAlongside({ event, position: null, streamVersion, stateAfter: state });
  return { spec: { streamId: publicationStreamId(journalId), expectedVersion: loaded.streamVersion, events: [stored], alongside }, after: { state, streamVersion } };
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
