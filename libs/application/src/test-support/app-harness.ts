import { createTestDb, type TestDb } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { readConfig } from '@palimpsest/composition/palimpsest-config';
import { dispatchRequest } from '../dispatch/dispatch';

export interface AppHarness {
  ctx: AppContext;
  testDb: TestDb;
  /** A call as a test sends it: any name off the wire, the answer read field by field (specs assert its shape). */
  call(name: string, args: unknown): Promise<Record<string, any>>;
  /** Create a target and return its id. */
  target(content: string, filename?: string): Promise<string>;
  count(sql: string, params?: unknown[]): Promise<number>;
  dispose(): Promise<void>;
}

/** `env`: the process environment the context is configured from (readConfig); default none set. */
export async function createAppHarness(env: Readonly<Record<string, string | undefined>> = {}): Promise<AppHarness> {
  const testDb = await createTestDb();
  const ctx = appContext(testDb.db, {}, readConfig(env, process.cwd()));
  const call = async (name: string, args: unknown): Promise<Record<string, any>> => dispatchRequest(ctx, name, args);
  return {
    ctx,
    testDb,
    call,
    async target(content, filename = 'doc.md') {
      const r = await call('palimpsest_initialize_target', { filename, content });
      if (r.status !== 'ok') throw new Error(JSON.stringify(r));
      return r.target_file_id as string;
    },
    async count(sql, params = []) {
      const { rows } = await testDb.db.query(sql, params);
      return Number(Object.values(rows[0])[0]);
    },
    dispose: () => testDb.dispose(),
  };
}
