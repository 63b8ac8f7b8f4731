import fc from 'fast-check';
import { createHash } from 'node:crypto';
import { changedPaths } from './snapshot-diff';
import { inPathOrder, isSnapshotHandle, snapshotRoot, type SnapshotFile } from './snapshot-root';

const sha = (text: string) => createHash('sha256').update(text).digest('hex');
const file = (path: string, text: string): SnapshotFile => ({ path, sha256: sha(text) });

describe('snapshot root', () => {
  it('is a lowercase sha256: handle, the same for the same files in any order', () => {
    const files = [file('src/a.ts', 'a'), file('b.md', 'b'), file('src/z/c.py', 'c')];
    const root = snapshotRoot(files);
    expect(isSnapshotHandle(root)).toBe(true);
    expect(snapshotRoot([...files].reverse())).toBe(root);
    expect(snapshotRoot([files[1]!, files[2]!, files[0]!])).toBe(root);
  });

  it('changes with a byte of a file, a path, a file added or removed, and two files swapping contents', () => {
    const files = [file('a', 'one'), file('b', 'two')];
    const root = snapshotRoot(files);
    expect(snapshotRoot([file('a', 'one!'), file('b', 'two')])).not.toBe(root);
    expect(snapshotRoot([file('c', 'one'), file('b', 'two')])).not.toBe(root);
    expect(snapshotRoot([...files, file('c', '')])).not.toBe(root);
    expect(snapshotRoot([files[0]!])).not.toBe(root);
    expect(snapshotRoot([file('a', 'two'), file('b', 'one')])).not.toBe(root);
  });

  it('keeps the empty snapshot apart from one empty file, and a path apart from its prefix', () => {
    expect(snapshotRoot([])).toBe(`sha256:${sha('')}`);
    expect(snapshotRoot([file('x', '')])).not.toBe(snapshotRoot([]));
    expect(snapshotRoot([file('ab', 'x')])).not.toBe(snapshotRoot([file('a', 'x')]));
  });

  it('orders paths by their UTF-8 bytes, not by UTF-16 code units', () => {
    const astral = file('\u{1F600}', 'x');
    const bmp = file('\uFF5E', 'y');
    expect(inPathOrder([astral, bmp]).map((f) => f.path)).toEqual(['\uFF5E', '\u{1F600}']);
  });

  it('refuses a path listed twice and a digest that is not lowercase hex', () => {
    expect(() => snapshotRoot([file('a', '1'), file('a', '2')])).toThrow(/twice/);
    expect(() => snapshotRoot([{ path: 'a', sha256: sha('1').toUpperCase() }])).toThrow(/SHA-256/);
  });

  it('is a function of the set of (path, digest) pairs alone (property)', () => {
    const files = fc.uniqueArray(fc.record({ path: fc.string({ minLength: 1, maxLength: 8 }), text: fc.string({ maxLength: 4 }) }), { selector: (f) => f.path, maxLength: 20 });
    fc.assert(
      fc.property(files, fc.integer(), (list, seed) => {
        const entries = list.map((f) => file(f.path, f.text));
        const shuffled = [...entries].sort((a, b) => (sha(`${seed}${a.path}`) < sha(`${seed}${b.path}`) ? -1 : 1));
        expect(snapshotRoot(shuffled)).toBe(snapshotRoot(entries));
      }),
    );
  });
});

describe('changed paths', () => {
  it('names modified, deleted and added paths in path order', () => {
    const before = [file('a', '1'), file('b', '2'), file('c', '3')];
    const now = [file('a', '1'), file('b', '2!'), file('d', '4')];
    expect(changedPaths(before, now)).toEqual([
      { path: 'b', change: 'modified' },
      { path: 'c', change: 'deleted' },
      { path: 'd', change: 'added' },
    ]);
    expect(changedPaths(before, before)).toEqual([]);
  });
});
