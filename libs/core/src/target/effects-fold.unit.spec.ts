import fc from 'fast-check';
import { sha256Hex } from '../text/sha256';
import { applyEffects } from '../transaction/text-effect';
import { rerunAcceptance, verifyAcceptance, verifyAcceptanceOn } from './acceptance-replay';
import { ReplayDivergence } from './replay-divergence';
import { decide, evolve } from './target.decider';
import { TargetFold } from './target-fold';
import type { TargetEvent } from './target.events';
import { initialTargetState, type ExistingTarget, type TargetState } from './target.state';

/**
 * Issue 25's property: random histories (tx/1 matches, tx/2 spans that land on and around earlier
 * changes of the same transaction, tx/3 replacements) over texts with astral code points, decided by the
 * target decider, then folded three ways: through the recorded effects (evolve, and TargetFold on tiny
 * chunks) and through the reference engine (the recorded runtime re-run on each preimage). Every
 * intermediate text and hash must agree, and every acceptance's effects must be what its engine does;
 * the replay verifier (on windows of the chunked text) accepts them and reports a tampered effect.
 */

const T = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-12-01T00:00:00.000Z';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;
const piece = fc.array(fc.constantFrom('a', 'b', 'ab', ' ', '\n', 'é', '😀', '𝄞', '漢', 'z'), { maxLength: 6 }).map((a) => a.join(''));
const cps = (s: string) => Array.from(s);

/** tx/2 spans chosen on the buffer the earlier spans of the transaction left (so they overlap and touch). */
const spans = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 5 }), piece), { minLength: 1, maxLength: 5 });
const matches = fc.array(fc.tuple(fc.nat(), fc.integer({ min: 1, max: 3 }), piece), { minLength: 1, maxLength: 3 });

type Step = { kind: 'tx1'; edits: [number, number, string][] } | { kind: 'tx2'; ops: [number, number, string][] } | { kind: 'tx3'; text: string };
const step: fc.Arbitrary<Step> = fc.oneof(
  { weight: 5, arbitrary: spans.map((ops) => ({ kind: 'tx2' as const, ops })) },
  { weight: 2, arbitrary: matches.map((edits) => ({ kind: 'tx1' as const, edits })) },
  { weight: 1, arbitrary: piece.map((text) => ({ kind: 'tx3' as const, text })) },
);

function proposalOf(step: Step, text: string): { protocol_version: 'patchdiff-tx/1' | 'patchdiff-tx/2' | 'patchdiff-tx/3'; proposal: Record<string, unknown> } {
  if (step.kind === 'tx3') return { protocol_version: 'patchdiff-tx/3', proposal: { intent: 'rewrite', replacement: step.text } };
  let buffer = cps(text);
  if (step.kind === 'tx2') {
    const operations = step.ops.map(([at, length, replace]) => {
      const start = at % (buffer.length + 1);
      const end = Math.min(buffer.length, start + length);
      const expected_text = buffer.slice(start, end).join('');
      buffer = [...buffer.slice(0, start), ...cps(replace), ...buffer.slice(end)];
      return { op: 'span', start, end, expected_text, replace };
    });
    return { protocol_version: 'patchdiff-tx/2', proposal: { intent: 'spans', operations } };
  }
  const edits = step.edits.map(([at, length, replace]) => {
    const start = buffer.length ? at % buffer.length : 0;
    const match = buffer.slice(start, start + length).join('') || 'a';
    const found = buffer.join('').indexOf(match);
    if (found >= 0) buffer = cps(buffer.join('').slice(0, found) + replace + buffer.join('').slice(found + match.length));
    return { match, replace, occurrence_index: 1 };
  });
  return { protocol_version: 'patchdiff-tx/1', proposal: { intent: 'matches', edits } };
}

function history(initial: string, steps: Step[]): TargetEvent[] {
  const init = decide(
    { type: 'InitializeTarget', now: NOW, target_id: T, filename: 'f.txt', content: initial, content_type: 'text/plain', project_id: null, editing_cycle_id: uuid(1), snapshot_id: uuid(2) },
    initialTargetState,
  );
  if (init.kind !== 'decided') throw new Error('initialize refused');
  const events = [...init.events];
  let state = init.state as ExistingTarget;
  steps.forEach((s, i) => {
    const d = decide({ type: 'SubmitProposal', now: NOW, attempt_id: uuid(3000 + i), target_id: T, expected_target_version: state.version, lookups: { keyed: null, parent: null }, ...proposalOf(s, state.content) }, state);
    if (d.kind !== 'decided' || !d.state.exists) return;
    events.push(...d.events);
    state = d.state;
  });
  return events;
}

function reasonOf(f: () => void): string | null {
  try {
    f();
  } catch (err) {
    if (err instanceof ReplayDivergence) return err.reason;
    throw err;
  }
  return null;
}

const trace = (s: TargetState) => (s.exists ? { text: s.content, hash: s.current_hash, sha: sha256Hex(s.content), version: s.version } : null);

describe('folding effects equals running the engine', () => {
  it('at every event of random histories: the text, its hash and the recorded effects', () => {
    fc.assert(
      fc.property(piece, fc.array(step, { maxLength: 12 }), fc.integer({ min: 2, max: 7 }), (initial, steps, chunkUnits) => {
        const events = history(initial, steps);
        let byEffects: TargetState = initialTargetState;
        let engineText = '';
        const fold = new TargetFold(chunkUnits);
        for (const e of events) {
          if (e.type === 'ProposalAccepted') {
            const ran = rerunAcceptance(engineText, e.data);
            expect(e.data.effects).toEqual(ran.effects);
            expect(applyEffects(engineText, e.data.effects)).toBe(ran.text);
            engineText = ran.text;
            expect(sha256Hex(engineText)).toBe(e.data.after_hash);
            // The verifier, on windows of the chunked preimage, agrees with the whole-text run and leaves the text as it was.
            const preimage = fold.buffer.toString();
            expect(() => verifyAcceptanceOn(fold.buffer, e.data)).not.toThrow();
            const tampered = { ...e.data, effects: e.data.effects.map((x, i) => (i === 0 ? { ...x, inserted: `${x.inserted}Z` } : x)) };
            expect(reasonOf(() => verifyAcceptanceOn(fold.buffer, tampered))).toBe(reasonOf(() => verifyAcceptance(preimage, tampered)));
            expect(reasonOf(() => verifyAcceptance(preimage, tampered))).toBe('the recorded effects differ from the effects its runtime produces');
            expect(fold.buffer.toString()).toBe(preimage);
          } else if (e.type === 'TargetInitialized') engineText = e.data.content;
          byEffects = evolve(byEffects, e);
          fold.apply(e);
          expect(trace(byEffects)).toEqual({ ...trace(byEffects), text: engineText, sha: sha256Hex(engineText) });
          expect(trace(fold.state)).toEqual(trace(byEffects));
        }
      }),
      { numRuns: 300 },
    );
  });
});
