import { canonicalJson } from '../transaction/record-codec';
import { readEventLine } from './bundle-lines';
import { eventCanonicalTextOf } from './event-chain';
import { scanEventLine } from './event-line-scan';

const LINK = 'ab'.repeat(32);
const lineOf = (dataJson: string) =>
  `[7,6,"${LINK}",null,${eventCanonicalTextOf({ streamId: 's-1', streamVersion: 3, type: 'T', schemaVersion: 2, recordedAt: '2026-01-02T03:04:05.678Z' }, dataJson, '{}')}]`;

/** Payloads the encoder writes in every form it has: escapes, pairs, integer-like names, numbers. */
const PAYLOADS: unknown[] = [
  null,
  { a: 1, b: [true, false, null, 'x'], c: { d: -1.5e-7, e: 1e21, f: 0 } },
  { text: 'tab\there "quoted" back\\slash\nnew line \u0001 \u001f \u007f \u2028 emoji 😀 / slash' },
  { '10': 'ten', '9': 'nine', a: 'after digits' },
  { nested: [[{ z: 1, y: 2 }], {}, []] },
  { big: 9007199254740991, small: -9007199254740991, fraction: 0.1 },
];

/** Forms the encoder never writes: each must be refused, by the scan and by the line reader. */
const NOT_CANONICAL = [
  '{"a": 1}',
  '{"b":1,"a":2}',
  '{"a":1,"a":2}',
  '{"a":"\\/"}',
  '{"a":"\\u0041"}',
  '{"a":"\\u001F"}',
  '{"a":"\\u000a"}',
  '{"a":1.0}',
  '{"a":-0}',
  '{"a":1E3}',
  '{"a":01}',
  '{"a":"\ud800"}',
  '{"a":[1 ,2]}',
  '{"a":tru}',
];

describe('scanning an event line for canonical form', () => {
  it.each(PAYLOADS.map((p) => [canonicalJson(p)]))('accepts what the encoder writes, with the text the digest covers: %s', (dataJson) => {
    const line = lineOf(dataJson);
    const scanned = scanEventLine(line);
    expect(scanned).toEqual(readEventLine(line));
    expect(scanned).toMatchObject({ position: 7, leafIndex: 6, chain: LINK, proof: null, streamId: 's-1', streamVersion: 3, text: line.slice(line.indexOf('{"data"'), -1) });
  });

  it.each(NOT_CANONICAL.map((d) => [d]))('refuses %s, and so does the line reader', (dataJson) => {
    const line = lineOf(dataJson);
    expect(scanEventLine(line)).toBeNull();
    expect(readEventLine(line)).not.toHaveProperty('text');
  });

  it('refuses a time, a number, a leaf index or a member out of the digest\'s form, and a line with anything after its event', () => {
    const line = lineOf('{}');
    for (const bad of [line.replace('.678Z', '.678+00:00'), line.replace('"schemaVersion":2', '"schemaVersion":2.5'), line.replace('"type":"T"', '"type":"T","x":1'), `${line} `, line.replace('[7,6,', '[7, 6,'), line.replace('[7,6,', '[7,true,'), line.replace('[7,6,', '[7,"ab",'), line.replace('[7,6,', '[7,[12],')]) {
      expect(scanEventLine(bad)).toBeNull();
      expect(readEventLine(bad)).not.toHaveProperty('text');
    }
  });
});
