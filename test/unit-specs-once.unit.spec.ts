import { readdirSync, readFileSync } from 'node:fs';
import { join, relative, resolve } from 'node:path';

/**
 * CI runs the unit project once, on the embedded store's run only (.ci/run): a unit spec must give the
 * same answer on both backends, so it reads no environment and imports nothing that opens a store or
 * starts a CLI or gateway. A spec that needs one of these is an int or e2e spec, which CI runs on both.
 */
const ROOT = resolve(__dirname, '..');
/** What can make a spec's answer depend on the backend: the environment, or a module that opens a store or starts a process that does. */
const REACHES_A_DATABASE = /process\.env|from '[^']*\/(open-db|test-db|pglite-db|pg-db|cli-process|http-server|workspace-process|crash-recovery|mcp-client)'/;

function unitSpecs(dir: string): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((entry) => {
    const path = join(dir, entry.name);
    if (entry.isDirectory()) return entry.name === 'node_modules' ? [] : unitSpecs(path);
    return entry.name.endsWith('.unit.spec.ts') ? [path] : [];
  });
}

describe('unit specs', () => {
  it('reach no database, so one run of them covers both backends', () => {
    const specs = ['apps', 'libs', 'test', 'clients'].flatMap((dir) => unitSpecs(join(ROOT, dir)));
    expect(specs.length).toBeGreaterThan(50);
    const reaching = specs.filter((file) => file !== __filename && REACHES_A_DATABASE.test(readFileSync(file, 'utf8')));
    expect(reaching.map((file) => relative(ROOT, file))).toEqual([]);
  });
});
