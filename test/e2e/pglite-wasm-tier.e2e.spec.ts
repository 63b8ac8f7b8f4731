import { execFile } from 'node:child_process';
import { join } from 'node:path';
import { promisify } from 'node:util';

const run = promisify(execFile);
const PGLITE_DB = join(__dirname, '..', '..', 'dist', 'libs', 'store', 'src', 'pglite', 'pglite-db.js');

/** A fresh process opens an in-memory store at `tier`, runs a join 200 times, and prints its peak RSS (MB) and the answer. */
const SCRIPT = `
const { openPgliteDb } = require(${JSON.stringify(PGLITE_DB)});
(async () => {
  const db = await openPgliteDb({ memory: true, wasmTier: process.argv[1] });
  let n = 0;
  for (let i = 0; i < 200; i++) n = (await db.query('SELECT count(*)::int AS n FROM generate_series(1, 50) a JOIN generate_series(1, 50) b ON a = b')).rows[0].n;
  await db.close();
  const hwm = /VmHWM:\\s+(\\d+) kB/.exec(require('fs').readFileSync('/proc/self/status', 'utf8'))[1];
  console.log(JSON.stringify({ hwmMb: Number(hwm) / 1024, n }));
})();`;

async function peak(tier: string): Promise<{ hwmMb: number; n: number }> {
  const { stdout } = await run(process.execPath, ['-e', SCRIPT, tier], { timeout: 120_000 });
  return JSON.parse(stdout) as { hwmMb: number; n: number };
}

describe('the embedded PostgreSQL compiled at the baseline WebAssembly tier', () => {
  it('answers like the optimized tier, with at least 30 MB less resident memory at its peak', async () => {
    const baseline = await peak('baseline');
    const optimized = await peak('optimized');
    expect(baseline.n).toBe(50);
    expect(optimized.n).toBe(50);
    expect(optimized.hwmMb - baseline.hwmMb).toBeGreaterThanOrEqual(30);
  }, 240_000);
});
