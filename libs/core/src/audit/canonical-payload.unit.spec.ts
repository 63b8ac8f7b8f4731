import fc from 'fast-check';
import { canonicalJson } from '../transaction/record-codec';
import { inCanonicalMemberOrder } from './canonical-payload';

describe('a payload as a bundle carries it', () => {
  it('has the same canonical encoding, so the same digest', () => {
    fc.assert(
      fc.property(fc.jsonValue(), (value) => {
        expect(canonicalJson(inCanonicalMemberOrder(value))).toBe(canonicalJson(value));
        // The same value as JSON gives it back (a -0 reads as 0, as it is written).
        expect(inCanonicalMemberOrder(value)).toEqual(JSON.parse(JSON.stringify(value)));
      }),
    );
  });

  it('lists each object\'s members in canonical order, integer-like names first as JSON keeps them', () => {
    const ordered = inCanonicalMemberOrder({ zeta: [1, { b: 'x', a: null }], alpha: '\u2028"', '2': true });
    expect(Object.keys(ordered)).toEqual(['2', 'alpha', 'zeta']);
    expect(Object.keys(ordered.zeta[1] as object)).toEqual(['a', 'b']);
  });
});
