import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openWorkspaceRoot, type WorkspaceRoot } from './workspace-root';
import { readWorkspaceFile } from './workspace-file-reader';

/**
 * A real race: another process keeps swapping a name on the path for a symlink to a directory (or file)
 * outside the root, by renames, while this one reads through it thousands of times. Every read must
 * return the inside bytes or a refusal, never the outside ones. A plain path read under the same race is
 * the control: it does reach the outside bytes, so the race is really run.
 */

/** Swap `name` between the real node (parked as `.real`) and a symlink (parked as `.link`), forever. */
const SWAPPER = `
const { renameSync } = require('node:fs');
const [dir, name] = process.argv.slice(1);
const at = (n) => dir + '/' + n;
let swaps = 0;
for (;;) {
  renameSync(at(name), at('.real'));
  renameSync(at('.link'), at(name));
  renameSync(at(name), at('.link'));
  renameSync(at('.real'), at(name));
  if (++swaps === 1) process.stdout.write('ready\\n');
}
`;

const READS = 5000;
const ALLOWED_REFUSALS = new Set(['PATH_SYMLINK', 'PATH_NOT_FOUND', 'PATH_CHANGED']);

describe('a symlink swapped in by a concurrent process', () => {
  let tmp: string;
  let root: WorkspaceRoot;
  let swapper: ChildProcess | null = null;

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-race-'));
    mkdirSync(join(tmp, 'root', 'sub'), { recursive: true });
    mkdirSync(join(tmp, 'outside'));
    writeFileSync(join(tmp, 'root', 'sub', 'file.txt'), 'inside');
    writeFileSync(join(tmp, 'outside', 'file.txt'), 'OUTSIDE');
    root = openWorkspaceRoot(join(tmp, 'root'));
  });
  afterEach(async () => {
    if (swapper && swapper.exitCode === null) {
      const exited = new Promise((resolve) => swapper!.once('exit', resolve));
      swapper.kill('SIGKILL');
      await exited;
    }
    swapper = null;
    root.close();
    rmSync(tmp, { recursive: true, force: true });
  });

  async function startSwapping(dir: string, name: string, linkTarget: string): Promise<void> {
    symlinkSync(linkTarget, join(dir, '.link'));
    const child = spawn(process.execPath, ['-e', SWAPPER, dir, name], { stdio: ['ignore', 'pipe', 'pipe'] });
    swapper = child;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the swapper exited (${code}): ${stderr}`)));
    });
  }

  /** Read through the swap until `reads` reads are done and both outcomes were seen (or 30 s pass). */
  function readUnderRace(read: () => string | { refused: string }, reads: number) {
    const seen = { inside: 0, refused: new Map<string, number>(), other: [] as string[] };
    const deadline = Date.now() + 30_000;
    for (let i = 0; (i < reads || seen.inside === 0 || seen.refused.size === 0) && Date.now() < deadline; i++) {
      const r = read();
      if (r === 'inside') seen.inside++;
      else if (typeof r === 'string') seen.other.push(r);
      else seen.refused.set(r.refused, (seen.refused.get(r.refused) ?? 0) + 1);
    }
    return seen;
  }

  const guarded = () => {
    const r = readWorkspaceFile(root, 'sub/file.txt');
    return r.kind === 'read' ? r.bytes.toString() : { refused: r.refusal.code };
  };

  it.each([
    ['an ancestor directory', 'root', 'sub', () => join(tmp, 'outside')],
    ['the file itself', 'root/sub', 'file.txt', () => join(tmp, 'outside', 'file.txt')],
  ])('never reads outside the root while %s is swapped for a symlink', async (_what, dir, name, target) => {
    await startSwapping(join(tmp, dir), name, target());
    const seen = readUnderRace(guarded, READS);
    expect(seen.other).toEqual([]);
    expect(seen.inside).toBeGreaterThan(0);
    expect(seen.refused.size).toBeGreaterThan(0);
    for (const code of seen.refused.keys()) expect(ALLOWED_REFUSALS).toContain(code);
  });

  it('the control: a plain path read under the same race does reach outside', async () => {
    await startSwapping(join(tmp, 'root'), 'sub', join(tmp, 'outside'));
    const path = join(tmp, 'root', 'sub', 'file.txt');
    let outside = 0;
    const deadline = Date.now() + 30_000;
    while (outside === 0 && Date.now() < deadline) {
      try {
        if (readFileSync(path, 'utf8') === 'OUTSIDE') outside++;
      } catch {
        // the name is absent between two renames
      }
    }
    expect(outside).toBeGreaterThan(0);
  });
});
