import fc from 'fast-check';
import { sha256Hex } from '../text/sha256';
import { applyProposal } from './apply-proposal';
import { OBSERVED_PROFILE, type ObservationLink } from './observed-scope';
import { PROTOCOL, RUNTIME } from './transaction.types';

const cps = (s: string) => [...s];
const slice = (s: string, a: number, b: number) => cps(s).slice(a, b).join('');

/** A document, a scope in it, and span edits of that scope in descending order (one read, absolute offsets). */
const scenario = fc
  .record({
    text: fc.string({ unit: fc.constantFrom('a', 'b', '\n', ' ', 'é', '😀'), minLength: 4, maxLength: 60 }),
    cuts: fc.array(fc.nat(), { minLength: 2, maxLength: 2 }),
    points: fc.uniqueArray(fc.nat(), { minLength: 1, maxLength: 8 }),
    replaces: fc.array(fc.string({ unit: fc.constantFrom('x', 'y', '\n', '€'), maxLength: 4 }), { minLength: 8, maxLength: 8 }),
  })
  .map(({ text, cuts, points, replaces }) => {
    const n = cps(text).length;
    const [s, e] = [cuts[0] % (n + 1), cuts[1] % (n + 1)].sort((x, y) => x - y);
    const inside = [...new Set(points.map((p) => s + (p % (e - s + 1))))].sort((x, y) => y - x);
    // Consecutive points pair into nonempty spans [lo, hi), descending and disjoint.
    const spans: { start: number; end: number }[] = [];
    for (let i = 0; i + 1 < inside.length; i += 2) spans.push({ start: inside[i + 1], end: inside[i] });
    const operations = spans.map(({ start, end }, i) => ({ op: 'span', start, end, expected_text: slice(text, start, end), replace: replaces[i] }));
    return { text, s, e, operations };
  });

const linkOf = (text: string, s: number, e: number): ObservationLink => ({
  observation_id: '44444444-4444-4444-8444-444444444444', target_id: '11111111-1111-4111-8111-111111111111', editing_cycle_id: '22222222-2222-4222-8222-222222222222',
  target_version: 0, target_hash: sha256Hex(text), scope_start: s, scope_end: e, observed_scope_hash: sha256Hex(slice(text, s, e)),
});

const observed = (text: string, s: number, e: number, operations: unknown[]) =>
  applyProposal({ protocol_version: OBSERVED_PROFILE.protocol, runtime_version: OBSERVED_PROFILE.runtime, record: { protocol_version: PROTOCOL.tx2, intent: 'i', operations, observation: linkOf(text, s, e) } }, text);

describe('observed scope (property)', () => {
  it('in-scope edits give the text of the same absolute tx/2 transaction', () => {
    fc.assert(
      fc.property(scenario, ({ text, s, e, operations }) => {
        fc.pre(operations.length > 0);
        const plain = applyProposal({ protocol_version: PROTOCOL.tx2, runtime_version: RUNTIME.spanOps, record: { protocol_version: PROTOCOL.tx2, intent: 'i', operations } }, text);
        const scoped = observed(text, s, e, operations);
        expect(plain.ok && scoped.ok).toBe(true);
        if (plain.ok && scoped.ok) expect(scoped.text).toBe(plain.text);
      }),
      { numRuns: 300 },
    );
  });

  it('no operation outside the scope is ever accepted', () => {
    fc.assert(
      fc.property(scenario, fc.nat(), fc.nat(), ({ text, s, e }, a, b) => {
        const n = cps(text).length;
        const [start, end] = [a % (n + 1), b % (n + 1)].sort((x, y) => x - y);
        const within = start < end ? start >= s && end <= e : start > s && start < e;
        fc.pre(!within);
        const op = { op: 'span', start, end, expected_text: slice(text, start, end), replace: 'z', expected_before: slice(text, start - 1, start) || null, expected_after: slice(text, end, end + 1) || null };
        const result = observed(text, s, e, [op]);
        expect(result).toMatchObject({ ok: false, diagnostic: { code: 'OPERATION_OUTSIDE_OBSERVED_SCOPE' } });
      }),
      { numRuns: 300 },
    );
  });
});
