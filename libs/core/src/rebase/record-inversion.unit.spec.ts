import fc from 'fast-check';
import { applyProposal } from '../transaction/apply-proposal';
import { RUNTIME } from '../transaction/transaction.types';
import { inverseFromRecord } from './record-inversion';

/** Undo from the record: the inverse spans, applied as a tx/2 transaction to the text an acceptance made, give its preimage back. */

const inverseApplied = (after: string, spans: ReturnType<typeof inverseFromRecord>) => {
  const undo = applyProposal({ protocol_version: 'patchdiff-tx/2', runtime_version: RUNTIME.spanOps, record: { intent: 'undo', operations: spans!.map((s) => ({ op: 'span', ...s })) } }, after);
  if (!undo.ok) throw new Error(undo.failure_detail);
  return undo.text;
};

describe('inverseFromRecord', () => {
  it('given tx/1 edits (each on the buffer the earlier left), when inverted, then the preimage comes back', () => {
    const text = 'alpha beta 😀 alpha\ngamma\n';
    const record = { intent: 'e', edits: [{ match: 'alpha', replace: 'A', occurrence_index: 2 }, { match: '😀 A', replace: 'emoji' }, { match: 'gamma\n', replace: '' }] };
    const done = applyProposal({ protocol_version: 'patchdiff-tx/1', runtime_version: RUNTIME.typedMatch, record }, text);
    if (!done.ok) throw new Error(done.failure_detail);
    expect(inverseApplied(done.text, inverseFromRecord('patchdiff-tx/1', record, done.facts))).toBe(text);
  });

  it('given a whole replacement, then it cannot say (the caller derives the preimage)', () => {
    expect(inverseFromRecord('patchdiff-tx/3', { intent: 'r', replacement: 'x' }, [])).toBeNull();
  });

  it('property: tx/2 spans that overlap and touch earlier ones of the same transaction invert exactly', () => {
    const piece = fc.array(fc.constantFrom('a', 'b', ' ', '\n', 'é', '😀', 'z'), { maxLength: 4 }).map((a) => a.join(''));
    fc.assert(
      fc.property(piece.map((p) => `${p}text with some words 😀 and lines\nsecond ${p}\n`), fc.array(fc.tuple(fc.nat(), fc.nat({ max: 4 }), piece), { minLength: 1, maxLength: 5 }), (text, picks) => {
        let buffer = Array.from(text);
        const operations = picks.map(([s, l, replace]) => {
          const start = s % (buffer.length + 1);
          const end = Math.min(buffer.length, start + l);
          const op = { op: 'span', start, end, expected_text: buffer.slice(start, end).join(''), replace };
          buffer = [...buffer.slice(0, start), ...Array.from(replace), ...buffer.slice(end)];
          return op;
        });
        const record = { intent: 'p', operations };
        const done = applyProposal({ protocol_version: 'patchdiff-tx/2', runtime_version: RUNTIME.spanOps, record }, text);
        if (!done.ok) return;
        expect(inverseApplied(done.text, inverseFromRecord('patchdiff-tx/2', record, done.facts))).toBe(text);
      }),
    );
  });
});
