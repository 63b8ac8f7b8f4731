import { mkdtempSync, rmSync, symlinkSync, truncateSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';
import { expectPublishedResult, publishedSchema } from '../test-support/published-result';
import { putFile } from '../test-support/put-file';

describe(`grep on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  let dir: string;
  let outside: string;
  const call = async (name: string, args: unknown) => {
    const answer = (await dispatch(h.ctx, name, args, { readOnly: true })) as Record<string, any>;
    expectPublishedResult(name, answer);
    return answer;
  };
  const grep = (args: unknown) => call('grep', args);

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-grep-');
    dir = h.dir;
    outside = mkdtempSync(join(tmpdir(), 'palimpsest-grep-outside-'));
    putFile(dir, '.gitignore', 'ignored/\n');
    putFile(dir, 'src/main.ts', 'import x from "y";\nexport function main() {\n  return Main;\r\n}\n');
    putFile(dir, 'src/util.js', 'function helper() {}\nconst MAIN = 1;\n');
    putFile(dir, 'ignored/main.ts', 'function main() {}\n');
    putFile(dir, 'node_modules/m/main.ts', 'function main() {}\n');
    putFile(dir, 'bin.dat', Buffer.concat([Buffer.from('function main\n'), Buffer.from([0, 1, 2])]));
    putFile(dir, 'latin1.txt', Buffer.from('function main caf\xe9\n', 'latin1'));
    putFile(dir, 'many.txt', Array.from({ length: 300 }, (_, i) => `hit ${i}\n`).join(''));
    putFile(dir, 'long.txt', `needle ${'x'.repeat(2000)}\n`);
    putFile(dir, 'redos/evil.txt', `${'a'.repeat(40)}!\n`);
    putFile(outside, 'main.ts', 'function main() {}\n');
    symlinkSync(outside, join(dir, 'linked'));
  });
  afterAll(async () => {
    rmSync(outside, { recursive: true, force: true });
    await h.dispose();
  });

  it('accepts the seed input schema exactly and refuses a wrong type', async () => {
    expect(publishedSchema('grep', 'params')({ pattern: 'a', path: 'src', glob: '*.ts', caseInsensitive: true, maxResults: 200 })).toBe(true);
    for (const bad of [{}, { pattern: '' }, { pattern: 'a', maxResults: 201 }, { pattern: 'a', caseInsensitive: 'no' }, { pattern: 'a', regex: true }]) {
      expect((await grep(bad)).status).toBe('invalid_argument');
    }
  });

  it('answers matches with path and 1-based line, skipping ignored, binary, non-UTF-8 and linked files', async () => {
    expect(await grep({ pattern: 'function \\w+\\(' })).toEqual({
      status: 'ok',
      matches: [
        { path: 'src/main.ts', line: 2, text: 'export function main() {' },
        { path: 'src/util.js', line: 1, text: 'function helper() {}' },
      ],
      truncated: false,
    });
  });

  it('honours caseInsensitive, glob and path; strips the CR of a CRLF line', async () => {
    expect((await grep({ pattern: 'main', caseInsensitive: true, path: 'src' })).matches).toEqual([
      { path: 'src/main.ts', line: 2, text: 'export function main() {' },
      { path: 'src/main.ts', line: 3, text: '  return Main;' },
      { path: 'src/util.js', line: 2, text: 'const MAIN = 1;' },
    ]);
    expect((await grep({ pattern: 'main', caseInsensitive: true, glob: '*.js' })).matches).toEqual([{ path: 'src/util.js', line: 2, text: 'const MAIN = 1;' }]);
    expect(await grep({ pattern: 'return', path: 'src/main.ts', glob: '*.md' })).toEqual({ status: 'ok', matches: [{ path: 'src/main.ts', line: 3, text: '  return Main;' }], truncated: false });
    expect(await grep({ pattern: 'x', path: 'src/nothing.ts' })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
    expect(await grep({ pattern: 'x', path: 'nowhere' })).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
    expect(await grep({ pattern: 'x', path: 'linked' })).toMatchObject({ status: 'invalid_argument', code: 'PATH_SYMLINK' });
  });

  it('bounds the answer: maxResults, the 200 cap (truncated), long lines cut', async () => {
    const five = await grep({ pattern: '^hit \\d+$', maxResults: 5 });
    expect(five.matches.map((m: { line: number }) => m.line)).toEqual([1, 2, 3, 4, 5]);
    expect(five.truncated).toBe(true);
    const capped = await grep({ pattern: '^hit' });
    expect(capped.matches).toHaveLength(200);
    expect(capped.truncated).toBe(true);
    const exact = await grep({ pattern: '^hit 299$' });
    expect(exact).toEqual({ status: 'ok', matches: [{ path: 'many.txt', line: 300, text: 'hit 299' }], truncated: false });
    const [long] = (await grep({ pattern: 'needle' })).matches;
    expect(long.text).toHaveLength(501);
  });

  it('never reads a file named outright past the 16 MiB cap: a 3 GiB file is stat\'d and skipped at once', async () => {
    putFile(dir, 'huge/big.log', 'needle\n');
    truncateSync(join(dir, 'huge/big.log'), 3 * 1024 ** 3); // sparse: no disk used, and past what one Buffer can hold
    const started = Date.now();
    expect(await grep({ pattern: 'needle', path: 'huge/big.log' })).toEqual({ status: 'ok', matches: [], truncated: false });
    expect(Date.now() - started).toBeLessThan(1000);
    putFile(dir, 'huge/small.log', 'needle\n');
    expect((await grep({ pattern: 'needle', path: 'huge/small.log' })).matches).toEqual([{ path: 'huge/small.log', line: 1, text: 'needle' }]);
  });

  it('refuses an invalid regular expression as INVALID_ARGUMENTS', async () => {
    expect(await grep({ pattern: '(unclosed' })).toMatchObject({ status: 'invalid_argument', code: 'INVALID_ARGUMENTS', argument: 'pattern' });
  });

  it('stops (a+)+$ at its budget with TOOL_TIMEOUT while another read is answered at once', async () => {
    const started = Date.now();
    const slow = grep({ pattern: '(a+)+$', path: 'redos' }).then((r) => ({ r, ms: Date.now() - started }));
    await new Promise((resolve) => setTimeout(resolve, 100));
    const readStarted = Date.now();
    const read = await call('read_file', { path: 'src/main.ts' });
    const readMs = Date.now() - readStarted;
    expect(read.status).toBe('ok');
    expect(readMs).toBeLessThan(200);
    const { r, ms } = await slow;
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'TOOL_TIMEOUT', argument: 'pattern' });
    expect(r.failure_detail).toMatch(/1000 ms.*narrow the pattern/);
    expect(ms).toBeGreaterThanOrEqual(1000);
    expect(ms).toBeLessThan(1500);
    // The service still greps after a worker was terminated.
    expect((await grep({ pattern: 'helper' })).matches).toHaveLength(1);
  });
});
