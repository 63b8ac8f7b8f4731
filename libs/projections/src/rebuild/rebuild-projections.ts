import { evolve } from '@palimpsest/core/target/target.decider';
import { upcastTargetEvent } from '@palimpsest/core/target/target.events';
import { initialTargetState, type TargetState } from '@palimpsest/core/target/target.state';
import type { Db, Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import { contentChangeFor } from '../content/content-change';
import { projectInline } from '../inline-projections';
import { compareDigests, readModelDigests, type DigestComparison } from './read-model-digest';
import { CANDIDATE_TABLES } from '../candidates/candidate.projection';
import { rebuildCandidateStreams } from '../candidates/rebuild-candidates';
import { PUBLICATION_TABLES } from '../publications/publication.projection';
import { rebuildPublicationStreams } from '../publications/rebuild-publications';
import { OBSERVATION_TABLES } from '../observations.projection';

export const READ_MODEL_TABLES = ['targets', 'target_chunks', 'target_snapshots', 'attempts', 'ledger', 'workspace_files', ...OBSERVATION_TABLES, ...CANDIDATE_TABLES, ...PUBLICATION_TABLES] as const;

export interface RebuildProgress {
  done: number;
  total: number;
  streamId: string;
}

export interface RebuildReport extends DigestComparison {
  streams: number;
  events: number;
  duration_ms: number;
}

async function rebuildStream(tx: Sql, streamId: string): Promise<number> {
  const stored = await readStream(tx, streamId);
  let state: TargetState = initialTargetState;
  let chunks: string[] = [];
  for (const s of stored) {
    const event = upcastTargetEvent(s.type, s.schemaVersion, s.data);
    state = evolve(state, event);
    const change = contentChangeFor(event, chunks, state);
    chunks = change.chunks;
    await projectInline(tx, [
      {
        event,
        position: s.globalPosition,
        streamVersion: s.streamVersion,
        recordedAt: s.recordedAt,
        stateAfter: state,
        contentRewrite: change.rewrite,
      },
    ]);
  }
  return stored.length;
}

/**
 * Drop every inline read model and rebuild it from the events, in one transaction: readers and writers
 * wait on the table locks and then see either the old models or the rebuilt ones, never a mix.
 * Returns whether the rebuilt models equal what they replaced, per target digest.
 */
export async function rebuildProjections(
  db: Db,
  opts: { onProgress?: (p: RebuildProgress) => void } = {},
): Promise<RebuildReport> {
  const started = Date.now();
  return db.transaction(async (tx) => {
    await tx.query(`LOCK TABLE ${READ_MODEL_TABLES.join(', ')} IN ACCESS EXCLUSIVE MODE`);
    const before = await readModelDigests(tx);
    await tx.query(`TRUNCATE ${READ_MODEL_TABLES.join(', ')}`);
    const { rows } = await tx.query(
      `SELECT stream_id FROM events WHERE stream_version = 1 AND stream_id LIKE 'target-%' ORDER BY global_position`,
    );
    let events = 0;
    for (let i = 0; i < rows.length; i++) {
      events += await rebuildStream(tx, rows[i].stream_id);
      opts.onProgress?.({ done: i + 1, total: rows.length, streamId: rows[i].stream_id });
    }
    const candidates = await rebuildCandidateStreams(tx);
    events += candidates.events;
    const journals = await rebuildPublicationStreams(tx);
    events += journals.events;
    await tx.query(
      `INSERT INTO projection_checkpoints (projection, last_position, rebuilt_at, updated_at)
       VALUES ('inline', COALESCE((SELECT max(global_position) FROM events), 0), now(), now())
       ON CONFLICT (projection) DO UPDATE SET last_position = EXCLUDED.last_position, rebuilt_at = now(), updated_at = now()`,
    );
    const after = await readModelDigests(tx);
    return { ...compareDigests(before, after), streams: rows.length + candidates.streams + journals.streams, events, duration_ms: Date.now() - started };
  });
}
