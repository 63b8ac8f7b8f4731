import fc from 'fast-check';
import { sha256Hex } from '../text/sha256';
import { applyProposal } from './apply-proposal';
import { OBSERVED_BATCH_PROFILE, type BatchLink } from './observed-batch';
import { PROTOCOL, RUNTIME } from './transaction.types';

const cps = (s: string) => [...s];
const slice = (s: string, a: number, b: number) => cps(s).slice(a, b).join('');
const BUNDLE = '55555555-5555-4555-8555-555555555555';

interface Group {
  s: number;
  e: number;
  /** Scope-local spans, descending (one read of the scope). */
  local: { start: number; end: number; replace: string }[];
}

/** A document cut into k disjoint scopes (k = 1..5), each with random scope-local span edits. */
const scenario = fc
  .record({
    text: fc.string({ unit: fc.constantFrom('a', 'b', '\n', ' ', 'é', '😀'), minLength: 6, maxLength: 80 }),
    cuts: fc.uniqueArray(fc.nat(), { minLength: 2, maxLength: 10 }),
    points: fc.array(fc.uniqueArray(fc.nat(), { minLength: 2, maxLength: 6 }), { minLength: 5, maxLength: 5 }),
    replaces: fc.array(fc.string({ unit: fc.constantFrom('x', 'y', '\n', '€'), maxLength: 4 }), { minLength: 3, maxLength: 3 }),
    order: fc.array(fc.nat(), { minLength: 5, maxLength: 5 }),
  })
  .map(({ text, cuts, points, replaces, order }) => {
    const n = cps(text).length;
    const bounds = [...new Set(cuts.map((c) => c % (n + 1)))].sort((x, y) => x - y);
    const groups: Group[] = [];
    for (let i = 0; i + 1 < bounds.length && groups.length < 5; i += 2) {
      const [s, e] = [bounds[i], bounds[i + 1]];
      const inside = [...new Set(points[groups.length].map((p) => p % (e - s + 1)))].sort((x, y) => y - x);
      const local = [];
      for (let j = 0; j + 1 < inside.length; j += 2) local.push({ start: inside[j + 1], end: inside[j], replace: replaces[(j / 2) % 3] });
      if (local.length) groups.push({ s, e, local });
    }
    // Groups are sent in any order: the batch assembles them by descending original span.
    const sent = groups.map((g, i) => ({ g, k: order[i] })).sort((a, b) => a.k - b.k).map(({ g }) => g);
    return { text, groups: sent };
  });

const linkOf = (text: string, s: number, e: number, ordinal: number): BatchLink => ({
  observation_id: `44444444-4444-4444-8444-${String(ordinal).padStart(12, '0')}`,
  target_id: '11111111-1111-4111-8111-111111111111',
  editing_cycle_id: '22222222-2222-4222-8222-222222222222',
  target_version: 0,
  target_hash: sha256Hex(text),
  scope_start: s,
  scope_end: e,
  observed_scope_hash: sha256Hex(slice(text, s, e)),
  bundle_id: BUNDLE,
  ordinal,
});

const batch = (text: string, groups: { s: number; e: number; operations: unknown[] }[]) =>
  applyProposal(
    {
      protocol_version: OBSERVED_BATCH_PROFILE.protocol,
      runtime_version: OBSERVED_BATCH_PROFILE.runtime,
      record: {
        protocol_version: OBSERVED_BATCH_PROFILE.record,
        intent: 'i',
        observation_bundle_id: BUNDLE,
        groups: groups.map((g, i) => ({ observation: linkOf(text, g.s, g.e, i + 1), operations: g.operations })),
      },
    },
    text,
  );

const localOps = (text: string, g: Group) => g.local.map(({ start, end, replace }) => ({ op: 'span', start, end, expected_text: slice(text, g.s + start, g.s + end), replace }));

describe('observed batch (property)', () => {
  it('a batch over k scopes gives the text of the equivalent absolute tx/2 transaction', () => {
    fc.assert(
      fc.property(scenario, ({ text, groups }) => {
        fc.pre(groups.length > 0);
        // The absolute equivalent: every group's spans shifted by its scope start, groups by descending scope.
        const absolute = [...groups].sort((a, b) => b.s - a.s).flatMap((g) => localOps(text, g).map((op) => ({ ...op, start: op.start + g.s, end: op.end + g.s })));
        const plain = applyProposal({ protocol_version: PROTOCOL.tx2, runtime_version: RUNTIME.spanOps, record: { protocol_version: PROTOCOL.tx2, intent: 'i', operations: absolute } }, text);
        const scoped = batch(text, groups.map((g) => ({ s: g.s, e: g.e, operations: localOps(text, g) })));
        expect(plain.ok && scoped.ok).toBe(true);
        if (plain.ok && scoped.ok) {
          expect(scoped.text).toBe(plain.text);
          expect([...scoped.facts].sort((a, b) => b.span_start - a.span_start).map((f) => [f.span_start, f.span_end])).toEqual(plain.facts.map((f) => [f.span_start, f.span_end]));
        }
      }),
      { numRuns: 300 },
    );
  });

  it('no operation outside its scope is ever accepted, whichever group carries it', () => {
    fc.assert(
      fc.property(scenario, fc.nat(), fc.integer({ min: -3, max: 3 }), fc.nat(), ({ text, groups }, pick, shift, width) => {
        fc.pre(groups.length > 0);
        const g = groups[pick % groups.length];
        const len = g.e - g.s;
        // A local span that leaves [0, len), or an insertion on a boundary.
        const start = shift < 0 ? 0 : len + shift;
        const end = shift < 0 ? Math.max(0, start + (width % 4)) : start + (width % 4);
        fc.pre(!(start < end && end <= len) && !(start === end && start > 0 && start < len));
        const bad = { op: 'span', start, end, expected_text: '', replace: 'z', expected_before: 'a', expected_after: 'b' };
        const result = batch(text, groups.map((h) => ({ s: h.s, e: h.e, operations: h === g ? [bad] : localOps(text, h) })));
        expect(result).toMatchObject({ ok: false, failure_reason: 'span_out_of_bounds', diagnostic: { code: 'OPERATION_OUTSIDE_OBSERVED_SCOPE', group_index: groups.indexOf(g) } });
      }),
      { numRuns: 300 },
    );
  });

  it('refuses, as evidence missing or altered, a scope hash that no longer matches and overlapping scopes', () => {
    const text = 'alpha beta gamma';
    const op = [{ op: 'span', start: 0, end: 1, expected_text: 'a', replace: 'A' }];
    const altered = applyProposal(
      {
        protocol_version: OBSERVED_BATCH_PROFILE.protocol,
        runtime_version: OBSERVED_BATCH_PROFILE.runtime,
        record: { protocol_version: OBSERVED_BATCH_PROFILE.record, intent: 'i', observation_bundle_id: BUNDLE, groups: [{ observation: { ...linkOf(text, 0, 5, 1), observed_scope_hash: '0'.repeat(64) }, operations: op }] },
      },
      text,
    );
    expect(altered).toMatchObject({ ok: false, failure_reason: 'protocol_invalid', diagnostic: { code: 'observed_evidence_invalid' } });
    expect(batch(text, [{ s: 0, e: 5, operations: op }, { s: 3, e: 10, operations: op }])).toMatchObject({ ok: false, failure_reason: 'protocol_invalid', failure_detail: expect.stringContaining('overlapping') });
  });
});
