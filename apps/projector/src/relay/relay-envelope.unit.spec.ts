import { msgIdOf, streamTypeOf, subjectOf, subjectToken, toEnvelope } from './relay-envelope';

describe('relay subjects and envelope', () => {
  it('names the subject palimpsest.<stream type>.<stream id>.<event type>', () => {
    const streamId = 'target-5f0c2f4e-8d43-4a55-9c1e-2b8f3c1d9a10';
    expect(subjectOf('palimpsest', { streamId, type: 'ProposalAccepted' })).toBe(`palimpsest.target.${streamId}.ProposalAccepted`);
    expect(streamTypeOf('candidate-1')).toBe('candidate');
    expect(streamTypeOf('plain')).toBe('plain');
    expect(streamTypeOf('-lead')).toBe('-lead');
  });

  it('keeps every part one NATS token: dots, wildcards, spaces, % and non-ASCII are escaped reversibly', () => {
    for (const text of ['a.b', '*', '>', 'a b\tc', '100%', 'é', '$SYS']) {
      const token = subjectToken(text);
      expect(token).toMatch(/^[A-Za-z0-9_%-]+$/);
      expect(decodeURIComponent(token)).toBe(text);
    }
    expect(() => subjectToken('')).toThrow(RangeError);
  });

  it('carries the stored event unchanged, the position as message id', () => {
    const event = { globalPosition: 42, streamId: 'publication-9', streamVersion: 3, type: 'X', schemaVersion: 2, data: { a: [1] }, metadata: { m: 1 }, recordedAt: '2026-01-01T00:00:00.000Z', transactionXid: '777' };
    expect(toEnvelope(event)).toEqual({
      global_position: 42, stream_id: 'publication-9', stream_type: 'publication', stream_version: 3, event_type: 'X',
      schema_version: 2, data: { a: [1] }, metadata: { m: 1 }, recorded_at: '2026-01-01T00:00:00.000Z', transaction_xid: '777',
    });
    expect(msgIdOf(event)).toBe('42');
  });
});
