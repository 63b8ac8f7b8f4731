import { decide } from '@palimpsest/core/target/target.decider';
import { targetEventSchemaVersion, targetStreamId, type TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { Reconstruction } from '@palimpsest/projections/replay/replay-target';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db, Sql } from '@palimpsest/store/db';
import { linesDocument, mulberry32 } from './replay-histories';
import { nowMs } from './stats';

/**
 * Memory of a long fold: a stream of `events` accepted one-line tx/2 edits of a 1 KB document, decided
 * by the target decider (what the application records) and appended in batches without read models
 * (the fold does not need them), then folded with heap sampled between pages.
 */

const uuid = (n: number) => `00000000-0000-4000-8000-${n.toString(16).padStart(12, '0')}`;
const NOW = '2026-12-01T00:00:00.000Z';

function must(d: ReturnType<typeof decide>): { events: TargetEvent[]; state: TargetState } {
  if (d.kind !== 'decided') throw new Error(`refused: ${JSON.stringify(d.refusal)}`);
  return d;
}

/** Append a long history; returns the target id. */
export async function appendLongHistory(db: Db, events: number, targetNumber: number): Promise<string> {
  const targetId = uuid(0xa0000000 + targetNumber);
  const random = mulberry32(targetNumber);
  let { events: batch, state } = must(
    decide({ type: 'InitializeTarget', now: NOW, target_id: targetId, filename: 'long.txt', content: linesDocument(1024), content_type: 'text/plain', project_id: null, editing_cycle_id: uuid(1), snapshot_id: uuid(2) }, { exists: false }),
  );
  let version = 0;
  const flush = async () => {
    const stored = batch.map((e) => ({ type: e.type, schemaVersion: targetEventSchemaVersion(e.type), data: e.data, recordedAt: NOW }));
    version = (await db.transaction((tx) => appendToStream(tx, targetStreamId(targetId), version, stored, { notifyChannel: null }))).nextExpectedVersion;
    batch = [];
  };
  for (let i = 0; i < events; i++) {
    if (!state.exists) throw new Error('the target vanished');
    const text = state.content;
    const at = Math.floor(random() * text.length);
    const start = text.lastIndexOf('\n', at - 1) + 1;
    const end = text.indexOf('\n', at);
    const operations = [{ op: 'span', start, end, expected_text: text.slice(start, end), replace: `${text.slice(start, start + 12)} edit ${i}` }];
    const d = must(decide({ type: 'SubmitProposal', now: NOW, attempt_id: uuid(10 + i), target_id: targetId, protocol_version: 'patchdiff-tx/2', proposal: { intent: 'line', operations }, expected_target_version: state.exists ? state.version : 0, lookups: { keyed: null, parent: null } }, state));
    batch.push(...d.events);
    state = d.state;
    if (batch.length >= 2000) await flush();
  }
  await flush();
  return targetId;
}

export interface FoldMemory {
  ms: number;
  accepted: number;
  /** Largest heapUsed seen while folding, above the heap when it started (MB). */
  peakHeapMb: number;
  /** Largest heapUsed right after a full GC (what the fold holds, not its garbage), above the start (MB); NaN without --expose-gc. */
  peakLiveMb: number;
}

type Reconstruct = (sql: Sql, targetId: string) => Promise<Reconstruction>;

/**
 * Fold the stream in one REPEATABLE READ snapshot, sampling the heap every few milliseconds and, with
 * --expose-gc, the live heap after a full GC every 100 ms (it runs between pages: the fold awaits each).
 */
export async function foldMemory(db: Db, targetId: string, reconstruct: Reconstruct): Promise<FoldMemory> {
  const gc = (globalThis as { gc?: () => void }).gc;
  gc?.();
  const base = process.memoryUsage().heapUsed;
  let peak = base;
  let live = gc ? base : NaN;
  let last = nowMs();
  const sampler = setInterval(() => {
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    if (!gc || nowMs() - last < 100) return;
    gc();
    live = Math.max(live, process.memoryUsage().heapUsed);
    last = nowMs();
  }, 2);
  const t0 = nowMs();
  try {
    const r = await db.transaction(async (tx) => {
      await tx.query('SET TRANSACTION ISOLATION LEVEL REPEATABLE READ');
      return reconstruct(tx, targetId);
    });
    if (r.divergence) throw r.divergence;
    peak = Math.max(peak, process.memoryUsage().heapUsed);
    // With the result still held: what a fold keeps when it is done.
    if (gc) {
      gc();
      live = Math.max(live, process.memoryUsage().heapUsed);
    }
    return { ms: nowMs() - t0, accepted: r.accepted, peakHeapMb: (peak - base) / 2 ** 20, peakLiveMb: (live - base) / 2 ** 20 };
  } finally {
    clearInterval(sampler);
  }
}
