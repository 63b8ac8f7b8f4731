import { evolve } from '@palimpsest/core/publication/publication.decider';
import {
  PUBLICATION_EVENT_SCHEMA_VERSION,
  publicationStreamId,
  upcastPublicationEvent,
  type PublicationEvent,
} from '@palimpsest/core/publication/publication.events';
import { initialPublicationState, type PublicationState } from '@palimpsest/core/publication/publication.state';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { publicationAlongside } from './publication.projection';

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

/** Append decided events at the loaded version (a concurrent writer fails the append), each with its projections in the same statement; returns the journal after. */
export async function commitPublicationEvents(
  tx: Sql,
  journalId: string,
  loaded: JournalAt,
  events: PublicationEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
): Promise<JournalAt> {
  if (events.length === 0) return loaded;
  let state = loaded.state;
  let streamVersion = loaded.streamVersion;
  for (const event of events) {
    state = evolve(state, event);
    if (!state.exists) throw new Error(`${event.type} left no journal`);
    const stored = { type: event.type, schemaVersion: PUBLICATION_EVENT_SCHEMA_VERSION, data: event.data, metadata, recordedAt };
    const alongside = publicationAlongside({ event, position: null, streamVersion: streamVersion + 1, stateAfter: state });
    streamVersion = (await appendToStream(tx, publicationStreamId(journalId), streamVersion, [stored], { alongside })).nextExpectedVersion;
  }
  return { state, streamVersion };
}
