import fc from 'fast-check';
import { ReplayDivergence, decide } from './target.decider';
import { TargetFold } from './target-fold';
import type { TargetEvent } from './target.events';
import { initialTargetState, type TargetState } from './target.state';
import { referenceFold, traceOf, type FoldTrace } from './test-support/reference-fold';

/**
 * The chunked fold against the reference (evolve on whole strings): random histories decided by the
 * target decider itself (tx/2 spans with and without context, tx/1 matches, tx/3 replacements,
 * rejections, checkpoints) over texts with astral characters, folded with tiny chunks so that edits
 * cross chunk boundaries; then the same histories with one acceptance tampered with.
 */

const T = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-12-01T00:00:00.000Z';
const ALPHABET = ['a', 'b', 'c', ' ', '\n', 'é', '😀', '\r\n', 'xy'];

function rng(seed: number): () => number {
  let a = seed >>> 0;
  return () => {
    a = (a + 0x6d2b79f5) >>> 0;
    let t = Math.imul(a ^ (a >>> 15), a | 1);
    t ^= t + Math.imul(t ^ (t >>> 7), t | 61);
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

function words(random: () => number, max: number): string {
  let s = '';
  for (let n = Math.floor(random() * max); n > 0; n--) s += ALPHABET[Math.floor(random() * ALPHABET.length)];
  return s;
}

const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

/** Spans on the code points of `text`, taken from the end towards the start so each stays valid. */
function spanOperations(text: string, random: () => number): Record<string, unknown>[] {
  const cps = Array.from(text);
  const ops: Record<string, unknown>[] = [];
  let limit = cps.length;
  for (let k = 1 + Math.floor(random() * 3); k > 0 && limit >= 0; k--) {
    const end = Math.floor(random() * (limit + 1));
    const start = Math.max(0, end - Math.floor(random() * 6));
    const op: Record<string, unknown> = { op: 'span', start, end, expected_text: cps.slice(start, end).join(''), replace: words(random, 5) };
    if (random() < 0.3 && start > 0) op.expected_before = cps.slice(Math.max(0, start - 3), start).join('');
    if (random() < 0.3 && end < cps.length) op.expected_after = cps.slice(end, end + 3).join('');
    if (random() < 0.1) op.expected_text += 'q';
    ops.push(op);
    limit = start - 1;
  }
  return ops;
}

function proposalFor(state: Extract<TargetState, { exists: true }>, random: () => number) {
  const r = random();
  if (r < 0.7) return { protocol_version: 'patchdiff-tx/2' as const, proposal: { intent: 'spans', operations: spanOperations(state.content, random) } };
  if (r < 0.85) {
    const cps = Array.from(state.content);
    const at = Math.floor(random() * cps.length);
    const match = cps.slice(at, at + 1 + Math.floor(random() * 3)).join('') || 'a';
    return { protocol_version: 'patchdiff-tx/1' as const, proposal: { intent: 'match', edits: [{ match, replace: words(random, 4), occurrence_index: 1 }] } };
  }
  return { protocol_version: 'patchdiff-tx/3' as const, proposal: { intent: 'rewrite', replacement: words(random, 40) } };
}

/** A history the decider records, from a random initial text. */
function history(seed: number, steps: number): TargetEvent[] {
  const random = rng(seed);
  const init = decide(
    { type: 'InitializeTarget', now: NOW, target_id: T, filename: 'f.txt', content: words(random, 120), content_type: 'text/plain', project_id: null, editing_cycle_id: uuid(1), snapshot_id: uuid(2) },
    initialTargetState,
  );
  if (init.kind !== 'decided') throw new Error('initialize refused');
  const events = [...init.events];
  let state = init.state;
  for (let i = 0; i < steps && state.exists; i++) {
    const d =
      random() < 0.1
        ? decide({ type: 'SaveCheckpoint', now: NOW, target_id: T, snapshot_id: uuid(1000 + i), new_editing_cycle_id: uuid(2000 + i) }, state)
        : decide({ type: 'SubmitProposal', now: NOW, attempt_id: uuid(3000 + i), target_id: T, expected_target_version: state.version, lookups: { keyed: null, parent: null }, ...proposalFor(state, random) }, state);
    if (d.kind !== 'decided') continue;
    events.push(...d.events);
    state = d.state;
  }
  return events;
}

function fastFold(events: readonly TargetEvent[], chunkUnits: number): FoldTrace {
  const fold = new TargetFold(chunkUnits);
  const hashes: FoldTrace['hashes'] = [];
  // What the target_chunks rows hold when each returned splice is written, as rebuild writes them.
  let stored: string[] = [];
  for (let i = 0; i < events.length; i++) {
    try {
      const s = fold.apply(events[i]!);
      if (s) stored = [...stored.slice(0, s.from), ...s.insert, ...stored.slice(s.from + s.deleteCount)];
      expect(stored).toEqual(fold.chunks);
    } catch (err) {
      if (err instanceof ReplayDivergence) return { hashes, state: fold.state, divergence: { index: i, attemptId: err.attemptId, message: err.message } };
      throw err;
    }
    hashes.push(traceOf(fold.state));
  }
  return { hashes, state: fold.state, divergence: null };
}

function tamper(event: Extract<TargetEvent, { type: 'ProposalAccepted' }>, how: number): TargetEvent {
  const data = { ...event.data };
  const record = JSON.parse(data.content) as Record<string, any>;
  if (how === 0) data.after_hash = '0'.repeat(64);
  else if (how === 1) data.content = data.content.slice(1);
  else if (how === 2 && Array.isArray(record.operations)) {
    record.operations[0].replace += 'Z';
    data.content = JSON.stringify(record);
  } else if (how === 3 && Array.isArray(record.operations)) {
    record.operations[0].start += 100_000;
    record.operations[0].end += 100_000;
    data.content = JSON.stringify(record);
  } else data.runtime_version = 'patchdiff-mvp-9.9.9';
  return { type: 'ProposalAccepted', data };
}

describe('TargetFold', () => {
  it('equals the reference fold at every event of random histories (hash, text hash, version)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 40 }), (seed, chunkUnits) => {
        const events = history(seed, 40);
        const reference = referenceFold(events);
        expect(reference.divergence).toBeNull();
        const fast = fastFold(events, chunkUnits);
        expect(fast.hashes).toEqual(reference.hashes);
        expect(fast.state).toEqual(reference.state);
      }),
      { numRuns: 60 },
    );
  });

  it('reports the same divergence as the reference for a tampered acceptance', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(), fc.integer({ min: 0, max: 4 }), fc.integer({ min: 2, max: 40 }), (seed, pick, how, chunkUnits) => {
        const events = history(seed, 30);
        const accepted = events.flatMap((e, i) => (e.type === 'ProposalAccepted' ? [i] : []));
        fc.pre(accepted.length > 0);
        const at = accepted[pick % accepted.length]!;
        const altered = events.map((e, i) => (i === at && e.type === 'ProposalAccepted' ? tamper(e, how) : e));
        const reference = referenceFold(altered);
        const fast = fastFold(altered, chunkUnits);
        expect(fast.divergence).toEqual(reference.divergence);
        expect(fast.hashes).toEqual(reference.hashes);
      }),
      { numRuns: 60 },
    );
  });

  it('folds with the default chunks too, and keeps the text when nothing changes it', () => {
    const events = history(7, 60);
    const fold = new TargetFold();
    for (const e of events) fold.apply(e);
    expect(fold.state).toEqual(referenceFold(events).state);
    expect(fold.chunks.join('')).toBe(referenceFold(events).state.exists ? (referenceFold(events).state as { content: string }).content : '');
  });
});

describe('TargetFold.state', () => {
  it('is a snapshot: folding later events does not change a state already taken', () => {
    const events = history(11, 30);
    const fold = new TargetFold(3);
    const states: TargetState[] = [];
    for (const e of events) {
      fold.apply(e);
      states.push(fold.state);
    }
    const reference = referenceFold(events);
    expect(states.map(traceOf)).toEqual(reference.hashes);
  });
});

describe('TargetFold.resume', () => {
  it('goes on from a folded state stored in any chunk layout, as the reference fold does', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.nat(), fc.integer({ min: 1, max: 9 }), (seed, pick, cut) => {
        const events = history(seed, 30);
        const at = 1 + (pick % events.length);
        const head = referenceFold(events.slice(0, at)).state;
        fc.pre(head.exists);
        const cps = Array.from((head as { content: string }).content);
        const chunks: string[] = [];
        for (let i = 0; i < cps.length; i += cut) chunks.push(cps.slice(i, i + cut).join(''));
        const fold = TargetFold.resume(head as Extract<TargetState, { exists: true }>, chunks);
        const hashes: ReturnType<typeof traceOf>[] = [];
        for (const e of events.slice(at)) {
          fold.apply(e);
          hashes.push(traceOf(fold.state));
        }
        expect(hashes).toEqual(referenceFold(events).hashes.slice(at));
        expect(fold.state).toEqual(referenceFold(events).state);
      }),
      { numRuns: 60 },
    );
  });
});

describe("TargetFold with hashCheck 'last' (what a rebuild stores is the text it ends with)", () => {
  /** Folds with the text checked only at the end; the divergence it reports, if any. */
  function foldLast(events: readonly TargetEvent[], chunkUnits: number): { fold: TargetFold; divergence: FoldTrace['divergence'] } {
    const fold = new TargetFold(chunkUnits, 'last');
    let i = 0;
    try {
      for (; i < events.length; i++) fold.apply(events[i]!);
      fold.checkText();
    } catch (err) {
      if (err instanceof ReplayDivergence) return { fold, divergence: { index: i, attemptId: err.attemptId, message: err.message } };
      throw err;
    }
    return { fold, divergence: null };
  }

  it('ends in the reference state and chunks, and its text checks out', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.integer({ min: 2, max: 40 }), (seed, chunkUnits) => {
        const events = history(seed, 40);
        const reference = referenceFold(events);
        const { fold, divergence } = foldLast(events, chunkUnits);
        expect(divergence).toBeNull();
        expect(fold.state).toEqual(reference.state);
        expect(fold.chunks).toEqual(fastFoldChunks(events, chunkUnits));
      }),
      { numRuns: 40 },
    );
  });

  it('reports the reference divergence when the last acceptance is tampered with (its after_hash, or its effects)', () => {
    fc.assert(
      fc.property(fc.integer({ min: 1, max: 2 ** 31 - 1 }), fc.boolean(), fc.integer({ min: 2, max: 40 }), (seed, hash, chunkUnits) => {
        const events = history(seed, 30);
        const at = events.map((e) => e.type).lastIndexOf('ProposalAccepted');
        fc.pre(at >= 0);
        const last = events[at] as Extract<TargetEvent, { type: 'ProposalAccepted' }>;
        fc.pre(hash || last.data.effects.length > 0);
        const data = hash
          ? { ...last.data, after_hash: '0'.repeat(64) }
          : { ...last.data, effects: last.data.effects.map((x, i) => (i === 0 ? { ...x, inserted: `${x.inserted}Z` } : x)) };
        const altered = events.map((e, i) => (i === at ? { type: 'ProposalAccepted' as const, data } : e));
        const reference = referenceFold(altered).divergence;
        expect(reference).not.toBeNull();
        const { divergence } = foldLast(altered, chunkUnits);
        expect(divergence && { attemptId: divergence.attemptId, message: divergence.message }).toEqual({ attemptId: reference!.attemptId, message: reference!.message });
      }),
      { numRuns: 40 },
    );
  });
});

/** The chunks the fold that checks every acceptance is left with. */
function fastFoldChunks(events: readonly TargetEvent[], chunkUnits: number): string[] {
  const fold = new TargetFold(chunkUnits);
  for (const e of events) fold.apply(e);
  return fold.chunks;
}
