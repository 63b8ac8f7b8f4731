import { existsSync, readFileSync } from 'node:fs';
import { join, resolve } from 'node:path';
import NO_DATABASE from './support/no-database-int-suites.json';

/**
 * CI's PostgreSQL run leaves out the int suites listed in test/support/no-database-int-suites.json
 * (jest.config.js): they reach no database, or PGlite only, whatever DATABASE_URL says, so a second run
 * could only repeat the embedded one. A listed suite therefore names no DATABASE_URL, builds no store
 * configuration from the environment, and imports nothing that opens a store chosen by it or starts a
 * process that does. openDb itself is allowed: without a configuration read from the environment it opens
 * PGlite. One that comes to need a database leaves the list, and runs on both backends again.
 */
const ROOT = resolve(__dirname, '..');
const CHOOSES_A_BACKEND = /DATABASE_URL|describeBackend|readStoreConfig\(process|from '[^']*\/(test-db|pg-db|cli-process|http-server|workspace-process|crash-recovery|mcp-client)'/;

describe('int suites left out of the PostgreSQL run', () => {
  it('exist, are int suites, and reach no database that DATABASE_URL chooses', () => {
    expect(NO_DATABASE.length).toBeGreaterThan(0);
    const wrong = NO_DATABASE.filter((path) => {
      const file = join(ROOT, path);
      return !path.endsWith('.int.spec.ts') || !existsSync(file) || CHOOSES_A_BACKEND.test(readFileSync(file, 'utf8'));
    });
    expect(wrong).toEqual([]);
  });
});
