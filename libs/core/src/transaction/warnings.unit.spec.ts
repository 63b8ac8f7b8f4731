import fc from 'fast-check';
import { findOccurrences } from '../reads/find-occurrences';
import { applyProposal } from './apply-proposal';
import type { RecordedProposal } from './apply-proposal';
import { defaultChangeId } from './parse-proposal';
import type { TxResult, WarningDetail } from './transaction.types';
import { collectWarnings } from './warnings';

const tx1 = (edits: unknown[]): RecordedProposal => ({
  protocol_version: 'patchdiff-tx/1',
  runtime_version: 'patchdiff-mvp-0.2.2',
  record: { protocol_version: 'patchdiff-tx/1', intent: 'i', edits },
});
const tx2 = (operations: unknown[]): RecordedProposal => ({
  protocol_version: 'patchdiff-tx/2',
  runtime_version: 'patchdiff-mvp-0.3.0',
  record: { protocol_version: 'patchdiff-tx/2', intent: 'i', operations },
});

function accepted(result: TxResult) {
  if (!result.ok) throw new Error(`expected acceptance, got ${result.failure_reason}: ${result.failure_detail}`);
  return result;
}

const ofCode = (warnings: WarningDetail[], code: WarningDetail['code']) => warnings.filter((w) => w.code === code);

describe('occurrence_index_basis_shift', () => {
  it('fires for same-string edits whose indexes were copied from find_occurrences', () => {
    const text = 'foo foo foo';
    const found = findOccurrences(text, { text: 'foo' });
    if (!found.ok) throw new Error('find_occurrences refused');
    const [first, second] = found.value.occurrences;
    const result = accepted(
      applyProposal(
        tx1([
          { match: 'foo', replace: 'bar', occurrence_index: first.occurrence_index },
          { match: 'foo', replace: 'baz', occurrence_index: second.occurrence_index },
        ]),
        text,
      ),
    );
    // Sequential semantics are unchanged: the second edit hit what was the third occurrence.
    expect(result.text).toBe('bar foo baz');
    expect(result.warnings).toEqual([
      {
        code: 'occurrence_index_basis_shift',
        detail: expect.stringContaining('number 3'),
        change_id: 'chg_002',
        change_index: 2,
        occurrence_index: 2,
        transaction_start_occurrence_index: 3,
      },
    ]);
  });

  it('reports null when the selected text was produced by an earlier edit', () => {
    const result = accepted(
      applyProposal(
        tx1([
          { match: 'cat', replace: 'dog', occurrence_index: 1 },
          { match: 'dog', replace: 'cow', occurrence_index: 1 },
        ]),
        'cat cat',
      ),
    );
    expect(ofCode(result.warnings, 'occurrence_index_basis_shift')).toEqual([
      expect.objectContaining({ change_index: 2, occurrence_index: 1, transaction_start_occurrence_index: null }),
    ]);
  });

  it('treats original text rejoined by deleting an insertion as untouched', () => {
    const ops = [
      { op: 'span', start: 2, end: 2, expected_text: '', replace: 'X' },
      { op: 'span', start: 2, end: 3, expected_text: 'X', replace: '' },
      { op: 'match', match: 'ba', replace: 'BA', occurrence_index: 1 },
    ];
    expect(accepted(applyProposal(tx2(ops), 'abab')).warnings).toEqual([]);
    const joined = [
      { op: 'span', start: 2, end: 3, expected_text: 'X', replace: '' },
      { op: 'match', match: 'ba', replace: 'BA', occurrence_index: 1 },
    ];
    expect(ofCode(accepted(applyProposal(tx2(joined), 'abXab')).warnings, 'occurrence_index_basis_shift')).toEqual([
      expect.objectContaining({ transaction_start_occurrence_index: null }),
    ]);
  });

  it('is silent without occurrence_index, for the first change, and when the index is stable', () => {
    expect(accepted(applyProposal(tx1([{ match: 'b', replace: 'x' }, { match: 'x', replace: 'y' }]), 'ab')).warnings).toEqual([]);
    expect(accepted(applyProposal(tx1([{ match: 'a', replace: 'x', occurrence_index: 2 }]), 'aa')).warnings).toEqual([]);
    const stable = tx1([
      { match: 'foo', replace: 'bar', occurrence_index: 3 },
      { match: 'foo', replace: 'baz', occurrence_index: 1 },
    ]);
    expect(accepted(applyProposal(stable, 'foo foo foo')).warnings).toEqual([]);
  });
});

describe('grapheme_boundary_split', () => {
  it('fires for a span offset sent in UTF-16 units after an emoji', () => {
    // The host meant to insert before "e\u0301" at UTF-16 offset 2; as a code-point offset, 2 is inside it.
    const text = '\u{1F600}e\u0301 ok';
    const result = accepted(applyProposal(tx2([{ op: 'span', start: 2, end: 2, expected_text: '', replace: '[' }]), text));
    expect(result.text).toBe('\u{1F600}e[\u0301 ok');
    expect(result.warnings).toEqual([
      { code: 'grapheme_boundary_split', detail: expect.stringContaining('UTF-16'), change_id: 'chg_001', change_index: 1, boundary: 'insertion', offset: 2 },
    ]);
  });

  it('fires for a deliberate edit of an emoji modifier, at the sequential offset', () => {
    const ops = [
      { op: 'span', start: 0, end: 0, expected_text: '', replace: '>> ' },
      { op: 'match', match: '\u{1F3FD}', replace: '\u{1F3FF}' },
    ];
    const result = accepted(applyProposal(tx2(ops), '\u{1F44D}\u{1F3FD}!'));
    expect(result.warnings).toEqual([expect.objectContaining({ code: 'grapheme_boundary_split', change_index: 2, boundary: 'start', offset: 4 })]);
  });

  it('is silent for whole-cluster edits and for replace_all', () => {
    const whole = tx2([{ op: 'span', start: 0, end: 2, expected_text: '\u{1F1FA}\u{1F1F8}', replace: 'US' }]);
    expect(accepted(applyProposal(whole, '\u{1F1FA}\u{1F1F8}\u{1F1EB}\u{1F1F7}')).warnings).toEqual([]);
    const all = { protocol_version: 'patchdiff-tx/3', runtime_version: 'patchdiff-mvp-0.4.0', record: { protocol_version: 'patchdiff-tx/3', intent: 'i', replacement: 'x' } };
    expect(accepted(applyProposal(all, 'e\u0301')).warnings).toEqual([]);
  });
});

describe('collectWarnings ordering', () => {
  it('orders by change_index, then code, then boundary; no_op_transaction last', () => {
    const warnings = collectWarnings({
      changes: [
        {
          change_id: 'b',
          change_index: 2,
          noOp: true,
          basisShift: { occurrence_index: 1, transaction_start_occurrence_index: null, prior_changes: 1 },
          graphemeSplits: [
            { boundary: 'start', offset: 1, reason: 'after_zwj' },
            { boundary: 'end', offset: 2, reason: 'before_tag' },
          ],
        },
        { change_id: 'a', change_index: 1, noOp: false, graphemeSplits: [{ boundary: 'insertion', offset: 3, reason: 'before_zwj' }] },
      ],
      before: 'x',
      after: 'x',
    });
    expect(warnings.map((w) => [w.code, w.change_index, w.boundary])).toEqual([
      ['grapheme_boundary_split', 1, 'insertion'],
      ['no_op_change', 2, undefined],
      ['occurrence_index_basis_shift', 2, undefined],
      ['grapheme_boundary_split', 2, 'start'],
      ['grapheme_boundary_split', 2, 'end'],
      ['no_op_transaction', undefined, undefined],
    ]);
  });
});

// ---- Properties: an independent model over code-point arrays ----

const ALPHABET = [
  'a', 'a', 'b', 'b', ' ', '\n', 'e', '\u0301', '\u0903', '\u20dd', '\u200d', '\ufe0f', '\u{E0100}', '\u{1F44D}', '\u{1F3FD}',
  '\u{E0067}', '\u{E007F}', '\u{1F1FA}', '\u{1F1F8}', '\u1100', '\u1161', '\u11a8', '\uac00', '\uac01', '\ua960', '\ud7cb',
  '\u{1F600}', '\u{20000}',
];
const cps = (max: number) => fc.array(fc.constantFrom(...ALPHABET), { maxLength: max });
// undo === 0 turns a step into a span deleting exactly what the previous change produced (rejoining original text).
const plan = fc.record({ match: fc.boolean(), a: fc.nat(60), b: fc.nat(60), k: fc.nat(9), index: fc.boolean(), replace: cps(3), undo: fc.nat(5) });
type Plan = { match: boolean; a: number; b: number; k: number; index: boolean; replace: string[]; undo: number };

const num = (c: string) => c.codePointAt(0) as number;
const within = (c: number, ranges: Array<[number, number]>) => ranges.some(([lo, hi]) => c >= lo && c <= hi);

/** The grapheme rule over a code-point array, written from its definition. */
function splits(text: readonly string[], p: number): boolean {
  if (p <= 0 || p >= text.length) return false;
  const [prev, next] = [num(text[p - 1]), num(text[p])];
  if (/\p{M}/u.test(text[p]) || within(next, [[0x200d, 0x200d], [0xfe00, 0xfe0f], [0xe0100, 0xe01ef], [0x1f3fb, 0x1f3ff], [0xe0020, 0xe007f]])) return true;
  if (prev === 0x200d) return true;
  let run = 0;
  while (run < p && within(num(text[p - 1 - run]), [[0x1f1e6, 0x1f1ff]])) run++;
  if (within(next, [[0x1f1e6, 0x1f1ff]]) && run % 2 === 1) return true;
  const kind = (c: number) =>
    within(c, [[0x1100, 0x115f], [0xa960, 0xa97c]]) ? 'L'
      : within(c, [[0x1160, 0x11a7], [0xd7b0, 0xd7c6]]) ? 'V'
        : within(c, [[0x11a8, 0x11ff], [0xd7cb, 0xd7fb]]) ? 'T'
          : within(c, [[0xac00, 0xd7a3]]) ? ((c - 0xac00) % 28 === 0 ? 'LV' : 'LVT')
            : '-';
  const pairs = ['L:L', 'L:V', 'L:LV', 'L:LVT', 'V:V', 'V:T', 'LV:V', 'LV:T', 'T:T', 'LVT:T'];
  return pairs.includes(`${kind(prev)}:${kind(next)}`);
}

/** Starts of the overlapping occurrences of `needle` in `hay`. */
function occurrences(hay: readonly string[], needle: readonly string[]): number[] {
  const out: number[] = [];
  for (let i = 0; i + needle.length <= hay.length; i++) if (needle.every((c, j) => hay[i + j] === c)) out.push(i);
  return out;
}

interface Cell {
  c: string;
  origin: number; // transaction-start offset, or -1 when a change produced it
}

/** Build an always-applicable tx/2 proposal from a plan, and the warnings the definitions call for. */
function model(original: string[], plans: Plan[]) {
  let cells: Cell[] = original.map((c, origin) => ({ c, origin }));
  const operations: unknown[] = [];
  const expected: Array<Record<string, unknown>> = [];
  let produced: [number, number] | null = null;
  plans.forEach((p, i) => {
    const text = cells.map((cell) => cell.c);
    const who = { change_id: defaultChangeId(i + 1), change_index: i + 1 };
    let start: number;
    let end: number;
    let shift: Record<string, unknown> | null = null;
    if (p.undo === 0 && produced !== null && produced[1] > produced[0]) {
      [start, end] = produced;
      p = { ...p, replace: [] };
      operations.push({ op: 'span', start, end, expected_text: text.slice(start, end).join(''), replace: '' });
    } else if (p.match && text.length > 0) {
      start = p.a % text.length;
      end = start + 1 + (p.b % Math.min(2, text.length - start));
      const needle = text.slice(start, end);
      const found = occurrences(text, needle);
      const withIndex = p.index || found.length > 1;
      const k = withIndex ? 1 + (p.k % found.length) : 1;
      [start, end] = [found[k - 1], found[k - 1] + needle.length];
      operations.push({ op: 'match', match: needle.join(''), replace: p.replace.join(''), ...(withIndex ? { occurrence_index: k } : {}) });
      if (withIndex && i > 0) {
        const picked = cells.slice(start, end);
        const untouched = picked.every((cell, j) => cell.origin >= 0 && cell.origin === picked[0].origin + j);
        const t = untouched ? occurrences(original, needle).indexOf(picked[0].origin) + 1 : 0;
        const startIndex = t === 0 ? null : t;
        if (startIndex !== k) shift = { code: 'occurrence_index_basis_shift', ...who, occurrence_index: k, transaction_start_occurrence_index: startIndex };
      }
    } else {
      start = p.a % (text.length + 1);
      end = start + (p.b % (text.length - start + 1));
      operations.push({ op: 'span', start, end, expected_text: text.slice(start, end).join(''), replace: p.replace.join('') });
    }
    if (text.slice(start, end).join('') === p.replace.join('')) expected.push({ code: 'no_op_change', ...who });
    if (shift !== null) expected.push(shift);
    const cuts: Array<[string, number]> = start === end ? [['insertion', start]] : [['start', start], ['end', end]];
    for (const [boundary, offset] of cuts) {
      if (splits(text, offset)) expected.push({ code: 'grapheme_boundary_split', ...who, boundary, offset });
    }
    cells = [...cells.slice(0, start), ...p.replace.map((c) => ({ c, origin: -1 })), ...cells.slice(end)];
    produced = [start, start + p.replace.length];
  });
  const final = cells.map((cell) => cell.c).join('');
  if (final === original.join('')) expected.push({ code: 'no_op_transaction' });
  return { proposal: tx2(operations), expected, final };
}

const withoutDetail = (warnings: WarningDetail[]) => warnings.map(({ detail, ...rest }) => rest);

describe('warnings: properties', () => {
  it('fire exactly when their definitions say, in order', () => {
    let shifts = 0;
    let splitCount = 0;
    fc.assert(
      fc.property(cps(14), fc.array(plan, { minLength: 1, maxLength: 5 }), (original, plans) => {
        const { proposal, expected, final } = model(original, plans);
        const result = accepted(applyProposal(proposal, original.join('')));
        expect(result.text).toBe(final);
        expect(withoutDetail(result.warnings)).toEqual(expected);
        for (const w of result.warnings) expect(w.detail.length).toBeGreaterThan(0);
        shifts += ofCode(result.warnings, 'occurrence_index_basis_shift').length;
        splitCount += ofCode(result.warnings, 'grapheme_boundary_split').length;
      }),
      { numRuns: 1500 },
    );
    // The generator must actually reach both rules.
    expect(shifts).toBeGreaterThan(50);
    expect(splitCount).toBeGreaterThan(50);
  });

  it('never change a verdict: results with warnings stripped equal a run with the rules switched off', () => {
    let silent: typeof applyProposal = applyProposal;
    jest.isolateModules(() => {
      jest.doMock('./warnings', () => ({ collectWarnings: () => [], changeWarningInput: () => null }));
      silent = (require('./apply-proposal') as typeof import('./apply-proposal')).applyProposal;
    });
    expect(silent).not.toBe(applyProposal);
    const strip = (r: TxResult) => (r.ok ? { ...r, warnings: [] } : r);
    const loose = fc.record(
      { match: cps(2).filter((m) => m.length > 0).map((m) => m.join('')), replace: cps(2).map((r) => r.join('')), occurrence_index: fc.option(fc.integer({ min: 1, max: 4 }), { nil: undefined }) },
      { requiredKeys: ['match', 'replace'] },
    );
    const proposals = fc.oneof(
      fc.tuple(cps(14), fc.array(plan, { minLength: 1, maxLength: 5 })).map(([o, p]) => ({ text: o.join(''), proposal: model(o, p).proposal })),
      fc.tuple(cps(14), fc.array(loose, { minLength: 1, maxLength: 4 })).map(([o, edits]) => ({ text: o.join(''), proposal: tx1(edits) })),
    );
    fc.assert(
      fc.property(proposals, ({ text, proposal }) => {
        expect(strip(applyProposal(proposal, text))).toEqual(strip(silent(proposal, text)));
      }),
      { numRuns: 500 },
    );
  });
});
