import { evolve } from '@palimpsest/core/publication/publication.decider';
import { everyEventWhere } from '@palimpsest/store/stored-event';
import { PUBLICATION_STREAM_PREFIX, upcastPublicationEvent } from '@palimpsest/core/publication/publication.events';
import { initialPublicationState, type PublicationState } from '@palimpsest/core/publication/publication.state';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { knownEvent } from '@palimpsest/store/inline-projection';
import { projectKnown } from '../inline-projections';
import { publicationProjection } from './publication.projection';

/**
 * Fold every journal stream and project each event again, journals in the order they started (the lease
 * serializes the journals of one file, so this is the order their journal columns were set in). Runs
 * after the target streams: the rows of workspace_files exist by then.
 */
export async function rebuildPublicationStreams(tx: Sql): Promise<{ streams: number; events: number }> {
  const { rows } = await tx.query<{ stream_id: string }>(
    `SELECT stream_id FROM ${everyEventWhere('stream_version = 1 AND stream_id LIKE $1')} first_event ORDER BY global_position`,
    [`${PUBLICATION_STREAM_PREFIX}%`],
  );
  let events = 0;
  for (const { stream_id } of rows) {
    let state: PublicationState = initialPublicationState;
    for (const s of await readStream(tx, stream_id)) {
      const event = upcastPublicationEvent(s.type, s.schemaVersion, s.data);
      state = evolve(state, event);
      if (!state.exists) throw new Error(`${stream_id}: ${event.type} left no journal`);
      await projectKnown(tx, publicationProjection, [knownEvent(event, s, state)]);
      events++;
    }
  }
  return { streams: rows.length, events };
}
