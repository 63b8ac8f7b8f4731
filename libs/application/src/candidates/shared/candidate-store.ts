import type { RequestRecord } from '@palimpsest/core/candidate/candidate.commands';
import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import {
  CANDIDATE_EVENT_SCHEMA_VERSION,
  candidateStreamId,
  upcastCandidateEvent,
  type CandidateEvent,
} from '@palimpsest/core/candidate/candidate.events';
import { initialCandidateState, type CandidateState } from '@palimpsest/core/candidate/candidate.state';
import { projectCandidateEvents, type ProjectedCandidateEvent } from '@palimpsest/projections/candidates/candidate.projection';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';

/**
 * Loading and committing the candidate aggregate. Writers serialize on the candidates row
 * (FOR UPDATE), then fold the stream — a handful of events — in a separate statement, so they see
 * everything committed before the lock was granted.
 */

export interface LoadedCandidate {
  state: CandidateState;
  streamVersion: number;
}

/** Serializes requests that carry the same request_id (a new candidate has no row to lock yet). */
export async function lockRequestId(tx: Sql, requestId: string): Promise<void> {
  await tx.query(`SELECT pg_advisory_xact_lock(hashtextextended('palimpsest:candidate-request:' || $1, 0))`, [requestId]);
}

export async function findRequest(sql: Sql, requestId: string): Promise<RequestRecord | null> {
  const { rows } = await sql.query<RequestRecord>(
    `SELECT request_id, operation, input_fingerprint, candidate_id::text AS candidate_id, candidate_version, log_sequence
       FROM candidate_requests WHERE request_id = $1`,
    [requestId],
  );
  return rows[0] ?? null;
}

/** True when the candidate exists; it is then locked until the transaction ends. */
export async function lockCandidateRow(tx: Sql, candidateId: string): Promise<boolean> {
  const { rows } = await tx.query('SELECT 1 FROM candidates WHERE candidate_id = $1 FOR UPDATE', [candidateId]);
  return rows.length > 0;
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

/** Append decided events and bring the candidate read models up to them; returns the state after. */
export async function commitCandidateEvents(
  tx: Sql,
  candidateId: string,
  loaded: LoadedCandidate,
  events: CandidateEvent[],
  recordedAt: string,
  metadata: Record<string, unknown>,
): Promise<CandidateState> {
  if (events.length === 0) return loaded.state;
  const { positions } = await appendToStream(
    tx,
    candidateStreamId(candidateId),
    loaded.streamVersion,
    events.map((e) => ({ type: e.type, schemaVersion: CANDIDATE_EVENT_SCHEMA_VERSION, data: e.data, metadata, recordedAt })),
  );
  let state = loaded.state;
  const projected: ProjectedCandidateEvent[] = events.map((event, i) => {
    state = evolve(state, event);
    if (!state.exists) throw new Error(`${event.type} left no candidate`);
    return { event, position: positions[i], streamVersion: loaded.streamVersion + i + 1, recordedAt, stateAfter: state };
  });
  await projectCandidateEvents(tx, projected);
  return state;
}

/** The event recorded at a global position (the answer a replayed request_id gets). */
export async function eventAt(sql: Sql, position: number): Promise<CandidateEvent | null> {
  const { rows } = await sql.query(
    'SELECT event_type, schema_version, data FROM events WHERE global_position = $1',
    [position],
  );
  return rows.length ? upcastCandidateEvent(rows[0].event_type, rows[0].schema_version, rows[0].data) : null;
}
