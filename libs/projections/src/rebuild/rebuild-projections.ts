import { ReplayDivergence } from '@palimpsest/core/target/replay-divergence';
import { TargetFold } from '@palimpsest/core/target/target-fold';
import { TEXT_CHUNK_UNITS } from '@palimpsest/core/text/chunked-text';
import { upcastTargetEvent } from '@palimpsest/core/target/target.events';
import { textOf } from '@palimpsest/core/target/target.state';
import type { Db, Sql } from '@palimpsest/store/db';
import { streamPages } from '@palimpsest/store/read-stream';
import { EVENTS_AND_ARCHIVE } from '@palimpsest/store/stored-event';
import { knownEvent } from '@palimpsest/store/inline-projection';
import { projectKnown, targetProjection } from '../inline-projections';
import { insertChunksSql } from '../content/target-content';
import { compareDigests, readModelDigests, type DigestComparison } from './read-model-digest';
import { CANDIDATE_TABLES } from '../candidates/candidate.projection';
import { rebuildCandidateStreams } from '../candidates/rebuild-candidates';
import { PUBLICATION_TABLES } from '../publications/publication.projection';
import { rebuildPublicationStreams } from '../publications/rebuild-publications';
import { OBSERVATION_TABLES } from '../observations.projection';
import { HISTORY_TABLES } from '../history/history-snapshots.projection';

export const READ_MODEL_TABLES = ['targets', 'target_chunks', 'target_snapshots', 'attempts', 'ledger', 'workspace_files', ...OBSERVATION_TABLES, ...CANDIDATE_TABLES, ...PUBLICATION_TABLES, ...HISTORY_TABLES] as const;

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

/**
 * Fold one target stream (the fold replay uses: TargetFold, a page of events at a time) and project
 * each event as it was committed, but for its text: the chunks are written once, at the end, from the
 * fold's layout, and the text is checked once against the last acceptance's after_hash (every other
 * column comes from the events themselves). Per event, nothing here grows with the document. A text
 * that does not check out is folded again, checking each acceptance, to name the first that diverges.
 * Returns the events folded.
 */
export async function rebuildStream(tx: Sql, streamId: string): Promise<number> {
  const fold = new TargetFold(TEXT_CHUNK_UNITS, 'last');
  let events = 0;
  for await (const page of streamPages(tx, streamId)) {
    for (const s of page) {
      const event = upcastTargetEvent(s.type, s.schemaVersion, s.data, () => textOf(fold.state));
      fold.apply(event);
      await projectKnown(tx, targetProjection, [knownEvent(event, s, { state: fold.state, rewrite: null })]);
    }
    events += page.length;
  }
  const state = fold.state;
  if (!state.exists) return events;
  try {
    fold.checkText();
  } catch (error) {
    if (error instanceof ReplayDivergence) await foldCheckingEach(tx, streamId);
    throw error;
  }
  const chunks = fold.chunks;
  if (chunks.length) {
    const { text, values } = insertChunksSql(state.target_id, 0, chunks).render();
    await tx.query(text, values);
  }
  return events;
}

/** Folds the stream checking every acceptance's after_hash: throws the first divergence. */
async function foldCheckingEach(tx: Sql, streamId: string): Promise<void> {
  const fold = new TargetFold();
  for await (const page of streamPages(tx, streamId)) {
    for (const s of page) fold.apply(upcastTargetEvent(s.type, s.schemaVersion, s.data, () => textOf(fold.state)));
  }
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
      // Archived targets too (their first event may be in the archive, and read twice while it is being detached).
      `SELECT stream_id FROM ${EVENTS_AND_ARCHIVE} AS events WHERE stream_version = 1 AND stream_id LIKE 'target-%'
        GROUP BY stream_id ORDER BY min(global_position)`,
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
