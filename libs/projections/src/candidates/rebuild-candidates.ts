import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import { everyEventWhere } from '@palimpsest/store/stored-event';
import { CANDIDATE_STREAM_PREFIX, upcastCandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import { initialCandidateState, type CandidateState } from '@palimpsest/core/candidate/candidate.state';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { knownEvent } from '@palimpsest/store/inline-projection';
import { projectKnown } from '../inline-projections';
import { candidateProjection } from './candidate.projection';

/** Fold every candidate stream and project each event again (the tables were truncated by the caller). */
export async function rebuildCandidateStreams(tx: Sql): Promise<{ streams: number; events: number }> {
  const { rows } = await tx.query<{ stream_id: string }>(
    `SELECT stream_id FROM ${everyEventWhere('stream_version = 1 AND stream_id LIKE $1')} first_event ORDER BY global_position`,
    [`${CANDIDATE_STREAM_PREFIX}%`],
  );
  let events = 0;
  for (const { stream_id } of rows) {
    let state: CandidateState = initialCandidateState;
    for (const s of await readStream(tx, stream_id)) {
      const event = upcastCandidateEvent(s.type, s.schemaVersion, s.data);
      state = evolve(state, event);
      if (!state.exists) throw new Error(`${stream_id}: ${event.type} left no candidate`);
      await projectKnown(tx, candidateProjection, [knownEvent(event, s, state)]);
      events++;
    }
  }
  return { streams: rows.length, events };
}
