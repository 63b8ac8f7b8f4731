import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createTestDb, type TestDb } from '@palimpsest/store/test-support/test-db';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';

/** A test database, an empty workspace directory opened as the root, and an app context on both. */
export interface WorkspaceHarness {
  testDb: TestDb;
  dir: string;
  root: WorkspaceRoot;
  ctx: AppContext;
  dispose(): Promise<void>;
}

export async function createWorkspaceHarness(prefix: string): Promise<WorkspaceHarness> {
  const testDb = await createTestDb();
  const dir = mkdtempSync(join(tmpdir(), prefix));
  const root = openWorkspaceRoot(dir);
  return {
    testDb,
    dir,
    root,
    ctx: appContext(testDb.db, { workspace: root }),
    async dispose() {
      root.close();
      rmSync(dir, { recursive: true, force: true });
      await testDb.dispose();
    },
  };
}
