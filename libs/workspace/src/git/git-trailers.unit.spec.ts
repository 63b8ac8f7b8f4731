import { attemptMessage, parseAttemptTrailers, trailerValues } from './git-trailers';

const TARGET = '9e99ccec-ba6d-4ac1-8340-4a1052a0aa7e';
const trailersOf = (message: string) => trailerValues(message.split('\n\n').at(-1)!);

describe('the attempt trailers', () => {
  it('omits the checkpoint before the first one and Assisted-by for an unknown client, and round-trips', () => {
    const message = attemptMessage('edit', { attemptId: 'a1', events: [{ targetId: TARGET, from: 0, to: 1 }], checkpoint: null, client: null });
    expect(message).toBe(`edit\n\nPalimpsest-Attempt: a1\nPalimpsest-Events: ${TARGET}@0..1\n`);
    expect(parseAttemptTrailers(trailersOf(message))).toEqual({ ok: true, trailers: { attemptId: 'a1', events: [{ targetId: TARGET, from: 0, to: 1 }], checkpoint: null, client: null } });
  });

  it('names what is malformed, and ignores a commit with none of them', () => {
    expect(parseAttemptTrailers(trailerValues('Signed-off-by: someone'))).toBeNull();
    expect(parseAttemptTrailers(trailerValues(`Palimpsest-Events: ${TARGET}@0..1`))).toEqual({ ok: false, reason: '0 Palimpsest-Attempt trailers (one expected)' });
    expect(parseAttemptTrailers(trailerValues('Palimpsest-Attempt: a\nPalimpsest-Events: x@1..2'))).toMatchObject({ ok: false, reason: expect.stringContaining('malformed Palimpsest-Events') });
    expect(parseAttemptTrailers(trailerValues(`Palimpsest-Attempt: a\nPalimpsest-Events: ${TARGET}@1..2\nPalimpsest-Checkpoint: 12`))).toMatchObject({ ok: false, reason: expect.stringContaining('malformed Palimpsest-Checkpoint') });
  });

  it('keeps a client name to one line', () => {
    const message = attemptMessage('s', { attemptId: 'a', events: [{ targetId: TARGET, from: 1, to: 2 }], checkpoint: null, client: 'evil\nSigned-off-by: x' });
    expect(message).toContain('Assisted-by: evil Signed-off-by: x\n');
    expect(trailersOf(message).has('Signed-off-by')).toBe(false);
  });
});
