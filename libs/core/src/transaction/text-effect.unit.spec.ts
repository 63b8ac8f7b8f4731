import fc from 'fast-check';
import { ChunkedText } from '../text/chunked-text';
import { applyProposal } from './apply-proposal';
import { applyEffects, EffectComposer, effectsFit, normalizeEffects, RESTORED, spliceEffects, unchangedEnds } from './text-effect';

const piece = fc.array(fc.constantFrom('a', 'b', '\n', 'é', '😀', '漢'), { maxLength: 8 }).map((a) => a.join(''));
const cps = (s: string) => Array.from(s);
const splices = fc.array(fc.tuple(fc.nat(), fc.nat({ max: 6 }), piece), { minLength: 1, maxLength: 8 });

/** Splices applied one after another to a code-point model, composed into effects on the way. */
function compose(preimage: string, edits: [number, number, string][]) {
  let model = cps(preimage);
  const composer = new EffectComposer();
  for (const [at, length, text] of edits) {
    const start = at % (model.length + 1);
    const end = Math.min(model.length, start + length);
    const current = model;
    composer.record(start, end, text, (from, to) => current.slice(from, to).join(''));
    model = [...model.slice(0, start), ...cps(text), ...model.slice(end)];
  }
  return { effects: composer.effects, after: model.join('') };
}

describe('text effects', () => {
  it('composed from sequential splices, apply to the preimage as the splices did: ascending, disjoint, untouching', () => {
    fc.assert(
      fc.property(piece, splices, (preimage, edits) => {
        const { effects, after } = compose(preimage, edits);
        expect(effectsFit(effects, cps(preimage).length)).toBe(true);
        effects.forEach((e, i) => i > 0 && expect(e.start).toBeGreaterThan(effects[i - 1]!.end));
        expect(applyEffects(preimage, effects)).toBe(after);
        expect(normalizeEffects(effects)).toEqual(effects);
      }),
    );
  });

  it('splice a chunked text as they apply to its string, or leave it as it was when the check fails', () => {
    fc.assert(
      fc.property(piece, splices, fc.integer({ min: 2, max: 6 }), fc.boolean(), (preimage, edits, size, pass) => {
        const { effects, after } = compose(preimage, edits);
        const text = ChunkedText.of(preimage, size);
        const before = text.chunkTexts;
        const s = spliceEffects(text, effects, () => pass);
        if (!pass) return expect([s, text.toString()]).toEqual([RESTORED, preimage]);
        expect(text.toString()).toBe(after);
        if (s && s !== RESTORED) expect([...before.slice(0, s.from), ...s.insert, ...before.slice(s.from + s.deleteCount)]).toEqual(text.chunkTexts);
      }),
    );
  });

  it('give the UTF-16 ends a transaction left unchanged, as the runtime reports them', () => {
    fc.assert(
      fc.property(piece, splices, (preimage, edits) => {
        let buffer = cps(preimage);
        const operations = edits.map(([at, length, replace]) => {
          const start = at % (buffer.length + 1);
          const end = Math.min(buffer.length, start + length);
          const op = { op: 'span', start, end, expected_text: buffer.slice(start, end).join(''), replace };
          buffer = [...buffer.slice(0, start), ...cps(replace), ...buffer.slice(end)];
          return op;
        });
        const result = applyProposal({ protocol_version: 'patchdiff-tx/2', runtime_version: 'patchdiff-mvp-0.3.0', record: { protocol_version: 'patchdiff-tx/2', intent: 'x', operations } }, preimage);
        if (!result.ok) throw new Error(result.failure_detail);
        const ends = unchangedEnds(preimage, result.effects);
        expect(ends).toEqual(result.changed);
        expect(result.text.slice(0, ends.unchangedPrefix)).toBe(preimage.slice(0, ends.unchangedPrefix));
        expect(result.text.slice(result.text.length - ends.unchangedSuffix)).toBe(preimage.slice(preimage.length - ends.unchangedSuffix));
      }),
    );
  });

  it('a whole replacement is one effect over the whole preimage', () => {
    const result = applyProposal({ protocol_version: 'patchdiff-tx/3', runtime_version: 'patchdiff-mvp-0.4.0', record: { protocol_version: 'patchdiff-tx/3', intent: 'x', replacement: 'new\r\ntext' } }, 'a😀b');
    expect(result).toMatchObject({ ok: true, effects: [{ start: 0, end: 3, inserted: 'new\ntext' }] });
    expect(unchangedEnds('a😀b', [{ start: 0, end: 3, inserted: 'x' }])).toEqual({ unchangedPrefix: 0, unchangedSuffix: 0 });
    expect(unchangedEnds('a😀b', [])).toEqual({ unchangedPrefix: 4, unchangedSuffix: 0 });
  });
});
