import fc from 'fast-check';
import { canonicalJson } from '../transaction/record-codec';
import { chainLink, eventCanonicalText, GENESIS_LINK, normalizedInstant } from './event-chain';

describe('the event chain', () => {
  it('covers the event as stored, its instant in UTC milliseconds', () => {
    const text = eventCanonicalText({
      streamId: 's',
      streamVersion: 2,
      type: 'T',
      schemaVersion: 1,
      data: { b: 1, a: 2 },
      metadata: {},
      recordedAt: '2024-05-01T14:00:00.5+02:00',
    });
    expect(text).toBe('{"data":{"a":2,"b":1},"metadata":{},"recordedAt":"2024-05-01T12:00:00.500Z","schemaVersion":1,"streamId":"s","streamVersion":2,"type":"T"}');
  });

  it('links SHA-256(previous ‖ digest)', () => {
    // sha256 of 64 zero bytes.
    expect(chainLink(GENESIS_LINK, GENESIS_LINK)).toBe('f5a5fd42d16a20302798ef6ed309979b43003d2320d9f0e8ea9831a92759fb4b');
  });

  it('writes by hand exactly the canonical JSON of the event object', () => {
    fc.assert(
      fc.property(fc.string(), fc.nat(), fc.string(), fc.nat(9), fc.jsonValue(), fc.dictionary(fc.string(), fc.jsonValue()), fc.date({ noInvalidDate: true }), (streamId, streamVersion, type, schemaVersion, data, metadata, at) => {
        const recordedAt = at.toISOString();
        const event = { streamId, streamVersion, type, schemaVersion, data, metadata, recordedAt };
        expect(eventCanonicalText(event)).toBe(canonicalJson(event));
      }),
    );
  });

  it('normalizes an instant exactly as Date does, fast path or not', () => {
    const samples = ['2023-02-31T00:00:00.000Z', '2024-02-29T10:00:00.000Z', '2024-05-01T14:00:00.5+02:00', '2024-05-01T12:00:00.123456Z'];
    for (const iso of samples) expect(normalizedInstant(iso)).toBe(new Date(iso).toISOString());
    fc.assert(
      fc.property(fc.date({ min: new Date('0001-01-01T00:00:00Z'), max: new Date('9999-12-31T23:59:59Z'), noInvalidDate: true }), (at) => {
        expect(normalizedInstant(at.toISOString())).toBe(at.toISOString());
      }),
    );
  });
});
