import fc from 'fast-check';
import { asciiJson } from '../transaction/record-codec';
import {
  CONTEXTS_MAX_BYTES,
  CONTEXT_MAX_BYTES,
  boundContexts,
  currentContext,
  failureContext,
  presentCurrentContext,
} from './rejection-context';

const H = 'a'.repeat(64);
const textArb = fc.array(fc.constantFrom('a', ' ', '\n', 'é', '😀', '𠀀', '\u0301', 'xyz'), { maxLength: 700 }).map((a) => a.join(''));
const cps = (s: string) => [...s];

describe('rejection contexts', () => {
  it('a short target is one whole prefix, not truncated', () => {
    expect(failureContext({ buffer: 'alpha beta alpha\n', priorChanges: 0, location: 11, observedVersion: 0, observedHash: H })).toEqual({
      available: true, unavailable_reason: null, selection: 'prefix', buffer_stage: 'canonical_target', prior_changes: 0,
      start: 0, end: 17, total_chars: 17, text: 'alpha beta alpha\n', truncated: false, observed_target_version: 0, observed_target_hash: H,
    });
  });

  it('switches to a window when fewer than 64 code points of the location would show', () => {
    const buffer = 'x'.repeat(1000);
    const near = failureContext({ buffer, priorChanges: 0, location: 100, observedVersion: 1, observedHash: H });
    expect(near).toMatchObject({ selection: 'prefix', start: 0, end: 256, truncated: true });
    const far = failureContext({ buffer, priorChanges: 2, location: 500, observedVersion: 1, observedHash: H });
    expect(far).toMatchObject({ selection: 'failure_window', start: 372, end: 628, buffer_stage: 'intermediate_buffer', prior_changes: 2 });
  });

  it('stays within every byte budget and keeps the location inside a window, astral text included', () => {
    fc.assert(
      fc.property(textArb, textArb, fc.nat(700), fc.nat(3), (buffer, other, at, prior) => {
        const location = Math.min(at, cps(buffer).length);
        const failure = failureContext({ buffer, priorChanges: prior, location, observedVersion: 7, observedHash: H });
        expect(asciiJson(failure).length).toBeLessThanOrEqual(CONTEXT_MAX_BYTES);
        expect(failure.text).toBe(cps(buffer).slice(failure.start, failure.end).join(''));
        expect(failure.truncated).toBe(failure.end - failure.start < cps(buffer).length);
        if (failure.selection === 'failure_window') {
          expect(location).toBeGreaterThanOrEqual(failure.start);
          expect(location).toBeLessThanOrEqual(failure.end);
        }
        const current = boundContexts(failure, presentCurrentContext(currentContext(other, 7, H), failure));
        expect(asciiJson({ failure_context: failure, current_context: current }).length).toBeLessThanOrEqual(CONTEXTS_MAX_BYTES);
      }),
    );
  });

  it('points at the failure context when the current one would repeat it key for key', () => {
    const failure = failureContext({ buffer: 'abc', priorChanges: 0, location: null, observedVersion: 0, observedHash: H });
    expect(presentCurrentContext(currentContext('abc', 0, H), failure)).toMatchObject({ available: false, unavailable_reason: 'same_as_failure_context', text: null });
    expect(presentCurrentContext(currentContext('abd', 1, H), failure)).toMatchObject({ available: true, text: 'abd' });
  });
});
