import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import {
  CANDIDATE_EVENT_SCHEMA_VERSION,
  candidateStreamId,
  upcastCandidateEvent,
  type CandidateEvent,
} from '@palimpsest/core/candidate/candidate.events';
import { initialCandidateState, type CandidateState } from '@palimpsest/core/candidate/candidate.state';
import { lockCandidateRow } from '@palimpsest/projections/candidates/candidate.queries';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';

/**
 * Loading the candidate aggregate (its commit: projections/candidates/candidate-commit.ts). Writers serialize on the candidates row
 * (FOR UPDATE), then fold the stream — a handful of events — in a separate statement, so they see
 * everything committed before the lock was granted.
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

