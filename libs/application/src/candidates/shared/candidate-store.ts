import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import { candidateStreamId, upcastCandidateEvent, type CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import { initialCandidateState, type CandidateState } from '@palimpsest/core/candidate/candidate.state';
import { candidateAppend } from '@palimpsest/projections/candidates/candidate-append';
import { lockCandidateRow } from '@palimpsest/projections/candidates/candidate.queries';
import type { Sql } from '@palimpsest/store/db';
import type { EventAppender } from '@palimpsest/store/event-store';
import { readStream } from '@palimpsest/store/read-stream';

/**
 * The candidate aggregate's store: loading it, and committing its decided events through the store's
 * one append (the registered candidate projection rides with each event). Writers serialize on the
 * candidates row (FOR UPDATE), then fold the stream — a handful of events — in a separate statement, so
 * they see everything committed before the lock was granted.
 */

export interface LoadedCandidate {
  state: CandidateState;
  streamVersion: number;
}

export async function loadCandidate(sql: Sql, candidateId: string): Promise<LoadedCandidate> {
  const stored = await readStream(sql, candidateStreamId(candidateId));
  let state: CandidateState = initialCandidateState;
  for (const s of stored) state = evolve(state, upcastCandidateEvent(s.type, s.schemaVersion, s.data));
  return { state, streamVersion: stored.length ? stored[stored.length - 1].streamVersion : 0 };
}

/** Lock, then load (an unknown candidate loads as the initial state). */
export async function lockAndLoad(tx: Sql, candidateId: string): Promise<LoadedCandidate> {
  if (!(await lockCandidateRow(tx, candidateId))) return { state: initialCandidateState, streamVersion: 0 };
  return loadCandidate(tx, candidateId);
}

/**
 * Append decided events at the loaded version, in the caller's store transaction (its commit wakes the
 * listeners); returns the state after.
 */
export async function commitCandidateEvents(
  tx: EventAppender,
  candidateId: string,
  loaded: LoadedCandidate,
  events: CandidateEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
): Promise<CandidateState> {
  if (events.length === 0) return loaded.state;
  const { append, after } = candidateAppend(candidateId, loaded, events, recordedAt, metadata);
  await tx.append(append.streamId, append.expectedVersion, append.events);
  return after;
}
