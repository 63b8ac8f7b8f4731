import { mkdirSync, mkdtempSync, rmSync, symlinkSync, truncateSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grepWorkspace, type GrepRequest } from './workspace-grep';
import { walkWorkspace } from './workspace-listing';
import { openWorkspaceRoot, type WorkspaceRoot } from './workspace-root';

const request = (over: Partial<GrepRequest>): GrepRequest => ({ pattern: 'hit', caseInsensitive: false, maxResults: 200, timeoutMs: 5000, ...over });

describe('grepWorkspace across batches (two in the worker at a time)', () => {
  let dir: string;
  let root: WorkspaceRoot;
  // 600 files in 6 directories, one match each: several 128-file batches.
  const expected = Array.from({ length: 600 }, (_, i) => `d${Math.floor(i / 100)}/f${String(i % 100).padStart(3, '0')}.txt`);

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-grep-batches-'));
    for (const [i, path] of expected.entries()) {
      mkdirSync(join(dir, path.split('/')[0]!), { recursive: true });
      writeFileSync(join(dir, path), `line\nhit ${i}\n`);
    }
    writeFileSync(join(dir, '.gitignore'), '/d5/\n');
    symlinkSync(join(dir, 'd0'), join(dir, 'loop'));
    root = openWorkspaceRoot(dir);
  });
  afterAll(() => {
    root.close();
    rmSync(dir, { recursive: true, force: true });
  });

  it('returns the first matches in walk order, truncated only when more exist', async () => {
    const visible = expected.slice(0, 500); // d5 is ignored, the link to d0 is not entered
    const all = await grepWorkspace(root, request({ maxResults: 200 }));
    expect(all).toMatchObject({ kind: 'done', truncated: true });
    if (all.kind !== 'done') return;
    expect(all.matches.map((m) => m.path)).toEqual(visible.slice(0, 200));
    expect(all.matches[0]).toEqual({ path: 'd0/f000.txt', line: 2, text: 'hit 0' });
    const exact = await grepWorkspace(root, request({ pattern: '^hit [0-9]$|^hit [0-9][0-9]$|^hit 1[0-8][0-9]$|^hit 19[0-9]$' }));
    expect(exact).toMatchObject({ kind: 'done', truncated: false });
    if (exact.kind === 'done') expect(exact.matches).toHaveLength(200);
    const tail = await grepWorkspace(root, request({ pattern: '^hit 4[0-9][0-9]$' }));
    if (tail.kind === 'done') expect(tail.matches.map((m) => m.path)).toEqual(visible.slice(400, 500));
  });

  it('serves concurrent calls from separate workers, each with its own answer', async () => {
    const answers = await Promise.all(['hit 1$', 'hit 2$', 'hit 3$', 'hit 4$'].map((pattern) => grepWorkspace(root, request({ pattern }))));
    expect(answers.map((a) => (a.kind === 'done' ? a.matches.map((m) => m.text) : a.kind))).toEqual([['hit 1'], ['hit 2'], ['hit 3'], ['hit 4']]);
  });

  it('lists the same files the search reads', () => {
    const walk = walkWorkspace(root, undefined, { recursive: true, glob: '*.txt' });
    if (walk.kind !== 'walk') throw new Error('refused');
    expect([...walk.entries].map((e) => e.path)).toEqual(expected.slice(0, 500));
  });
});

describe('grepWorkspace: the literal fast path, the batch buffers and hostile files', () => {
  let dir: string;
  let outside: string;
  let root: WorkspaceRoot;
  const grep = async (over: Partial<GrepRequest>) => {
    const outcome = await grepWorkspace(root, request(over));
    if (outcome.kind !== 'done') throw new Error(`grep answered ${outcome.kind}`);
    return outcome;
  };
  // A file of lines, some holding "needle" (twice on one line, at the very end, CRLF), the last without a line break.
  const mixed = ['needle one', 'none', 'a needle and a needle', 'Needle', 'x\r', 'needle crlf\r', '', 'tail needle'].join('\n');
  const bigLine = `${'x'.repeat(3 * 1024 * 1024)} needle`;
  const largeFile = `needle first\n${'filler line\n'.repeat(100_000)}needle last\n`; // ~1.2 MB: a batch buffer of its own

  beforeAll(() => {
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-grep-fast-'));
    outside = mkdtempSync(join(tmpdir(), 'palimpsest-grep-fast-outside-'));
    mkdirSync(join(dir, 'a'));
    writeFileSync(join(dir, 'a', 'mixed.txt'), mixed);
    writeFileSync(join(dir, 'a', 'kelvin.txt'), '\u212aelvin\n'); // K is the Kelvin sign: Kelvin and kelvin under iu only
    writeFileSync(join(dir, 'a', 'binary.dat'), Buffer.concat([Buffer.from('needle\n'), Buffer.from([0, 1, 2])]));
    writeFileSync(join(dir, 'a', 'latin1.txt'), Buffer.from('needle caf\xe9\n', 'latin1'));
    writeFileSync(join(dir, 'a', 'long.txt'), bigLine);
    writeFileSync(join(dir, 'a', 'large.txt'), largeFile);
    writeFileSync(join(dir, 'a', 'huge.log'), 'needle\n');
    truncateSync(join(dir, 'a', 'huge.log'), 17 * 1024 * 1024); // past the 16 MiB bound: sparse, never read
    writeFileSync(join(outside, 'secret.txt'), 'needle OUTSIDE\n');
    symlinkSync(join(outside, 'secret.txt'), join(dir, 'a', 'linked.txt'));
    symlinkSync(outside, join(dir, 'a', 'linked-dir'));
    root = openWorkspaceRoot(dir);
  });
  afterAll(() => {
    root.close();
    rmSync(dir, { recursive: true, force: true });
    rmSync(outside, { recursive: true, force: true });
  });

  /** What a plain line-by-line search of `text` gives (the reference the fast path must equal). */
  const byLine = (path: string, text: string, regex: RegExp) =>
    text
      .split('\n')
      .map((line, i) => ({ path, line: i + 1, text: line.endsWith('\r') ? line.slice(0, -1) : line }))
      .filter((m) => regex.test(m.text))
      .map((m) => (m.text.length > 500 ? { ...m, text: `${m.text.slice(0, 500)}…` } : m));

  it('finds the lines a line-by-line search finds, with or without a literal to look for first', async () => {
    const expected = [
      ...byLine('a/large.txt', largeFile, /needle/),
      ...byLine('a/long.txt', bigLine, /needle/),
      ...byLine('a/mixed.txt', mixed, /needle/),
    ];
    expect(expected.map((m) => `${m.path}:${m.line}`)).toEqual(['a/large.txt:1', 'a/large.txt:100002', 'a/long.txt:1', 'a/mixed.txt:1', 'a/mixed.txt:3', 'a/mixed.txt:6', 'a/mixed.txt:8']);
    expect(await grep({ pattern: 'needle' })).toEqual({ kind: 'done', matches: expected, truncated: false });
    // (?:needle) gives no literal at the top level: every line is tested, the answer is the same.
    expect(await grep({ pattern: '(?:needle)' })).toEqual({ kind: 'done', matches: expected, truncated: false });
    expect((await grep({ pattern: 'needle', maxResults: 3 })).truncated).toBe(true);
  });

  it('folds case as the pattern does: the Kelvin sign is k under caseInsensitive (Unicode mode), not otherwise', async () => {
    expect((await grep({ pattern: 'kelvin', caseInsensitive: true })).matches).toEqual([{ path: 'a/kelvin.txt', line: 1, text: '\u212aelvin' }]);
    expect((await grep({ pattern: 'kelvin' })).matches).toEqual([]);
    expect((await grep({ pattern: 'NEEDLE', caseInsensitive: true, glob: 'mixed.txt' })).matches.map((m) => m.line)).toEqual([1, 3, 4, 6, 8]);
  });

  it('skips binary and non-UTF-8 files, files past 16 MiB and links (to a file or a directory outside) even when they hold the literal', async () => {
    const paths = new Set((await grep({ pattern: 'needle' })).matches.map((m) => m.path));
    expect([...paths].sort()).toEqual(['a/large.txt', 'a/long.txt', 'a/mixed.txt']);
    expect((await grep({ pattern: 'OUTSIDE' })).matches).toEqual([]);
  });

  it('searches the substitute a bound file gives, larger than what was read or not', async () => {
    const seen: string[] = [];
    const substitute = (path: string, bytes: Uint8Array) => {
      seen.push(path);
      if (path === 'a/mixed.txt') return Buffer.from(`${'pad\n'.repeat(200_000)}substituted needle\n`);
      return bytes;
    };
    const found = await grep({ pattern: 'substituted|needle first', substitute });
    expect(found.matches).toEqual([
      { path: 'a/large.txt', line: 1, text: 'needle first' },
      { path: 'a/mixed.txt', line: 200_001, text: 'substituted needle' },
    ]);
    expect(seen).toEqual(expect.arrayContaining(['a/large.txt', 'a/mixed.txt', 'a/kelvin.txt']));
    expect(seen).not.toContain('a/linked.txt');
    expect(seen).not.toContain('a/huge.log');
  });
});

describe('grepWorkspace after a .gitignore changes', () => {
  it('honours the new rules at the next call (rules are kept by their text, never by their file)', async () => {
    const dir = mkdtempSync(join(tmpdir(), 'palimpsest-grep-rules-'));
    const root = openWorkspaceRoot(dir);
    try {
      for (const name of ['a', 'b', 'c']) {
        mkdirSync(join(dir, name));
        writeFileSync(join(dir, name, 'x.txt'), 'hit\n');
      }
      const paths = async () => {
        const outcome = await grepWorkspace(root, request({}));
        return outcome.kind === 'done' ? outcome.matches.map((m) => m.path) : outcome.kind;
      };
      writeFileSync(join(dir, '.gitignore'), 'a/\n');
      expect(await paths()).toEqual(['b/x.txt', 'c/x.txt']);
      expect(await paths()).toEqual(['b/x.txt', 'c/x.txt']);
      writeFileSync(join(dir, '.gitignore'), 'b/\n');
      expect(await paths()).toEqual(['a/x.txt', 'c/x.txt']);
      writeFileSync(join(dir, 'c', '.gitignore'), 'x.txt\n');
      expect(await paths()).toEqual(['a/x.txt']);
      writeFileSync(join(dir, '.gitignore'), 'a/\n');
      expect(await paths()).toEqual(['b/x.txt']);
    } finally {
      root.close();
      rmSync(dir, { recursive: true, force: true });
    }
  });
});
