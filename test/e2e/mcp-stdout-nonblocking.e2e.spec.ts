import { spawn } from 'node:child_process';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/cli-process';

const TRANSPORT = join(REPO_ROOT, 'dist', 'apps', 'mcp', 'src', 'mcp-server', 'ascii-stdio-transport.js');
const MB = 4;

// The child writes 4 MB of answers to its stdout pipe, which the test does not read yet, and ticks on stderr.
const CHILD = `
const { stdoutWriter } = require(${JSON.stringify(TRANSPORT)});
const out = stdoutWriter();
const line = 'x'.repeat(65535) + '\\n';
for (let i = 0; i < ${MB * 16}; i++) out.write(line);
let ticks = 0;
const timer = setInterval(() => process.stderr.write('tick ' + ++ticks + '\\n'), 5);
process.stdin.once('data', () => { clearInterval(timer); out.end(() => process.exit(0)); });
`;

describe('the stdio server writes its answers without blocking', () => {
  it('keeps its event loop turning while the client does not read, and loses no byte', async () => {
    const child = spawn(process.execPath, ['-e', CHILD], { stdio: ['pipe', 'pipe', 'pipe'] });
    child.stdout.pause();
    // Process.stdout would block the child on its first 64 KB; ticks prove the loop ran with 4 MB unread.
    await new Promise<void>((resolve) => {
      let seen = '';
      child.stderr.on('data', (chunk: Buffer) => {
        seen += chunk.toString();
        if (seen.includes('tick 20\n')) resolve();
      });
    });
    let bytes = 0;
    child.stdout.on('data', (chunk: Buffer) => (bytes += chunk.length));
    child.stdout.resume();
    child.stdin.write('go\n');
    const code = await new Promise<number | null>((resolve) => child.once('close', resolve));
    expect({ code, bytes }).toEqual({ code: 0, bytes: MB * 16 * 65536 });
  });
});
