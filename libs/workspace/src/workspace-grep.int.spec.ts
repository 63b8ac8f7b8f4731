import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
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
