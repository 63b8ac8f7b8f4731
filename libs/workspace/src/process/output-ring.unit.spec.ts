import { OutputRing } from './output-ring';

const text = (n: number, from = 0) => Buffer.from(Array.from({ length: n }, (_, i) => String.fromCharCode(97 + ((from + i) % 26))).join(''));

describe('OutputRing', () => {
  it('reads by absolute cursor across the wrap, and says what the ring overtook', () => {
    const ring = new OutputRing(10);
    ring.append(text(7));
    ring.append(text(6, 7)); // 13 written: the oldest held is offset 3, the ring has wrapped
    expect(ring.start).toBe(3);
    expect(ring.read(0, 100)).toEqual({ bytes: text(10, 3), nextCursor: 13, skipped: 3 });
    expect(ring.read(5, 4)).toEqual({ bytes: text(4, 5), nextCursor: 9, skipped: 0 });
    expect(ring.read(8, 100).bytes).toEqual(text(5, 8)); // across the wrap: a copy
    expect(ring.read(13, 100)).toEqual({ bytes: Buffer.alloc(0), nextCursor: 13, skipped: 0 });
    expect(ring.held()).toEqual(text(10, 3));
  });

  it('keeps the last bytes of a chunk larger than the ring', () => {
    const ring = new OutputRing(4);
    ring.append(text(9));
    expect(ring.written).toBe(9);
    expect(ring.held()).toEqual(text(4, 5));
    expect(ring.read(2, 2)).toEqual({ bytes: text(2, 5), nextCursor: 7, skipped: 3 });
  });

  it('grows with what is written, and holds the same bytes as a whole ring would through every size of chunk', () => {
    const capacity = 20_000;
    const ring = new OutputRing(capacity);
    expect(ring.held()).toEqual(Buffer.alloc(0));
    let all = Buffer.alloc(0);
    let seed = 7;
    for (let i = 0; i < 200; i++) {
      seed = (seed * 48271) % 2147483647;
      const chunk = Buffer.from(Array.from({ length: seed % 900 }, (_, j) => (i + j) % 251));
      ring.append(chunk);
      all = Buffer.concat([all, chunk]);
      expect(ring.held()).toEqual(all.subarray(Math.max(0, all.length - capacity)));
      const cursor = Math.max(0, all.length - 1500);
      expect(ring.read(cursor, 1000).bytes).toEqual(all.subarray(Math.max(cursor, all.length - capacity), Math.max(cursor, all.length - capacity) + 1000));
    }
    expect(all.length).toBeGreaterThan(capacity * 3);
  });
});
