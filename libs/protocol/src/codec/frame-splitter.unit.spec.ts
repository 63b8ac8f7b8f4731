import fc from 'fast-check';
import { FrameSplitter, type FrameEvent } from './frame-splitter';

const enc = (s: string) => new TextEncoder().encode(s);
const dec = (b: Uint8Array) => Buffer.from(b).toString('latin1');

/** Cuts `bytes` at the given positions (sorted, deduplicated) into chunks. */
function chunked(bytes: Uint8Array, cuts: number[]): Uint8Array[] {
  const points = [...new Set(cuts.map((c) => c % (bytes.length + 1)))].sort((a, b) => a - b);
  const out: Uint8Array[] = [];
  let prev = 0;
  for (const p of [...points, bytes.length]) {
    out.push(bytes.slice(prev, p));
    prev = p;
  }
  return out;
}

function run(splitter: FrameSplitter, chunks: Uint8Array[], watch?: (s: FrameSplitter) => void): FrameEvent[] {
  const events: FrameEvent[] = [];
  for (const c of chunks) {
    events.push(...splitter.push(c));
    watch?.(splitter);
  }
  events.push(...splitter.end());
  return events;
}

const describeEvents = (events: FrameEvent[]) => events.map((e) => (e.kind === 'frame' ? dec(e.bytes) : '<oversized>'));

describe('FrameSplitter', () => {
  const LIMIT = 16;
  // é is two UTF-8 bytes: at most LIMIT / 2 characters keeps every generated frame within the byte limit.
  const frameText = fc.string({ unit: fc.constantFrom('a', 'b', '\u00e9', ' '), maxLength: LIMIT / 2 });

  it('yields the same frames however the stream is chunked', () => {
    fc.assert(
      fc.property(fc.array(frameText, { maxLength: 8 }), fc.boolean(), fc.array(fc.nat(), { maxLength: 12 }), (frames, lastLf, cuts) => {
        const text = frames.join('\n') + (lastLf && frames.length ? '\n' : '');
        const events = run(new FrameSplitter(LIMIT), chunked(enc(text), cuts));
        // An unterminated empty tail (text ending in LF, or no text) is no frame at all.
        const expected = text.split('\n');
        if (expected[expected.length - 1] === '') expected.pop();
        expect(describeEvents(events)).toEqual(expected.map((f) => dec(enc(f))));
      }),
    );
  });

  it('accepts a frame of exactly the limit and refuses one byte more', () => {
    expect(describeEvents(run(new FrameSplitter(LIMIT), [enc(`${'x'.repeat(LIMIT)}\n`)]))).toEqual(['x'.repeat(LIMIT)]);
    expect(describeEvents(run(new FrameSplitter(LIMIT), [enc(`${'x'.repeat(LIMIT + 1)}\n`)]))).toEqual(['<oversized>']);
  });

  it('drains an oversized frame without holding it, reports it at its LF, then stops', () => {
    fc.assert(
      fc.property(
        fc.array(frameText, { maxLength: 3 }),
        fc.integer({ min: LIMIT + 1, max: LIMIT * 20 }),
        fc.array(frameText, { maxLength: 3 }),
        fc.array(fc.nat(), { maxLength: 20 }),
        (before, size, after, cuts) => {
          const text = [...before, 'y'.repeat(size), ...after].join('\n') + '\n';
          const splitter = new FrameSplitter(LIMIT);
          let maxHeld = 0;
          const events = run(splitter, chunked(enc(text), cuts), (s) => (maxHeld = Math.max(maxHeld, s.bufferedBytes)));
          expect(maxHeld).toBeLessThanOrEqual(LIMIT);
          expect(describeEvents(events)).toEqual([...before.map((f) => dec(enc(f))), '<oversized>']);
          expect(splitter.isStopped).toBe(true);
          expect(splitter.push(enc('more\n'))).toEqual([]);
        },
      ),
    );
  });

  it('does not report an oversized frame before its LF arrives', () => {
    const splitter = new FrameSplitter(LIMIT);
    expect(splitter.push(enc('z'.repeat(LIMIT * 3)))).toEqual([]);
    expect(splitter.bufferedBytes).toBe(0);
    expect(splitter.push(enc('z'.repeat(LIMIT)))).toEqual([]);
    expect(splitter.push(enc('zz\n{"next":1}\n'))).toEqual([{ kind: 'oversized', limit: LIMIT }]);
  });

  it('reports an oversized frame cut short by the end of the stream', () => {
    const splitter = new FrameSplitter(LIMIT);
    expect(splitter.push(enc('ok\n' + 'z'.repeat(LIMIT + 5)))).toHaveLength(1);
    expect(splitter.end()).toEqual([{ kind: 'oversized', limit: LIMIT }]);
    expect(splitter.end()).toEqual([]);
  });

  it('yields empty frames for consecutive LFs and the unterminated last frame at end()', () => {
    expect(describeEvents(run(new FrameSplitter(LIMIT), [enc('\n\na\nb')]))).toEqual(['', '', 'a', 'b']);
  });

  it('copies frame bytes: reusing a chunk buffer does not change an emitted frame', () => {
    const splitter = new FrameSplitter(LIMIT);
    const chunk = enc('abc');
    splitter.push(chunk);
    chunk.fill(0x21);
    const [event] = splitter.push(enc('\n'));
    expect(event.kind === 'frame' && dec(event.bytes)).toBe('abc');
  });
});
