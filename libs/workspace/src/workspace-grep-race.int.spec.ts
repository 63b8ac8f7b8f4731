import { execFileSync, spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { grepWorkspace } from './workspace-grep';
import { openWorkspaceRoot, type WorkspaceRoot } from './workspace-root';

/**
 * grep opens a listed file by its name in the directory handle the walk holds, with O_NOFOLLOW and
 * without blocking, and searches it only when fstat says it is a regular file. Another process swaps a
 * name between the listing and the open, by renames, for a link to outside the root or for a FIFO,
 * while this one greps: every answer holds the inside line or nothing, never the outside one, and no
 * call hangs on the FIFO.
 */

/** Swap `name` between the real node (parked as `.real`) and the stand-in (parked as `.other`), forever. */
const SWAPPER = `
const { renameSync } = require('node:fs');
const [dir, name] = process.argv.slice(1);
const at = (n) => dir + '/' + n;
let swaps = 0;
for (;;) {
  renameSync(at(name), at('.real'));
  renameSync(at('.other'), at(name));
  renameSync(at(name), at('.other'));
  renameSync(at('.real'), at(name));
  if (++swaps === 1) process.stdout.write('ready\\n');
}
`;

describe('grep while a concurrent process swaps a name under the walk', () => {
  let tmp: string;
  let root: WorkspaceRoot;
  let swapper: ChildProcess | null = null;

  beforeEach(() => {
    tmp = mkdtempSync(join(tmpdir(), 'palimpsest-grep-race-'));
    mkdirSync(join(tmp, 'root', 'sub'), { recursive: true });
    mkdirSync(join(tmp, 'outside'));
    for (let i = 0; i < 40; i++) writeFileSync(join(tmp, 'root', 'sub', `f${String(i).padStart(2, '0')}.txt`), `other ${i}\n`);
    writeFileSync(join(tmp, 'root', 'sub', 'file.txt'), 'marker inside\n');
    writeFileSync(join(tmp, 'outside', 'file.txt'), 'marker OUTSIDE\n');
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

  async function startSwapping(dir: string, name: string): Promise<void> {
    const child = spawn(process.execPath, ['-e', SWAPPER, dir, name], { stdio: ['ignore', 'pipe', 'pipe'] });
    swapper = child;
    let stderr = '';
    child.stderr!.on('data', (d) => (stderr += d));
    await new Promise<void>((resolve, reject) => {
      child.stdout!.once('data', () => resolve());
      child.once('exit', (code) => reject(new Error(`the swapper exited (${code}): ${stderr}`)));
    });
  }

  /** Grep until `calls` calls are done and both outcomes (the inside line, no line) were seen, or 30 s pass. */
  async function grepUnderRace(calls: number) {
    const seen = { inside: 0, none: 0, other: [] as string[] };
    const deadline = Date.now() + 30_000;
    for (let i = 0; (i < calls || seen.inside === 0 || seen.none === 0) && Date.now() < deadline; i++) {
      const r = await grepWorkspace(root, { pattern: 'marker', caseInsensitive: false, maxResults: 200, timeoutMs: 5000 });
      if (r.kind !== 'done') throw new Error(`grep answered ${r.kind}`);
      const texts = r.matches.map((m) => m.text);
      if (texts.length === 0) seen.none++;
      else if (texts.length === 1 && texts[0] === 'marker inside') seen.inside++;
      else seen.other.push(texts.join(' | '));
    }
    return seen;
  }

  it.each([
    ['the file, for a link to a file outside', 'root/sub', 'file.txt', () => symlinkSync(join(tmp, 'outside', 'file.txt'), join(tmp, 'root', 'sub', '.other'))],
    ['its directory, for a link to a directory outside', 'root', 'sub', () => symlinkSync(join(tmp, 'outside'), join(tmp, 'root', '.other'))],
    ['the file, for a FIFO no one writes', 'root/sub', 'file.txt', () => execFileSync('mkfifo', [join(tmp, 'root', 'sub', '.other')])],
  ])('never reads outside nor hangs while %s', async (_what, dir, name, makeOther) => {
    makeOther();
    await startSwapping(join(tmp, dir), name);
    const seen = await grepUnderRace(500);
    expect(seen.other).toEqual([]);
    expect(seen.inside).toBeGreaterThan(0);
    expect(seen.none).toBeGreaterThan(0);
  });
});
