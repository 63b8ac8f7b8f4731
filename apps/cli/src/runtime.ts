import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { reconcileAtStart } from '@palimpsest/application/workspace-publication/recover-journal';
import { settleRunsLeftByACrash } from '@palimpsest/application/commands/crash-cleanup/crash-cleanup';
import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { cliConfig, cliEnv } from './cli-config';

/** Open the configured store (DATABASE_URL, else embedded PGlite), migrate it, run `fn`, always close. */
export async function withApp<T>(fn: (ctx: AppContext) => Promise<T>, opts: { migrate?: boolean } = {}): Promise<T> {
  const config = cliConfig();
  const db: Db = await openDb({}, config.store);
  const ctx = appContext(db, {}, config);
  try {
    if (opts.migrate !== false) await prepareStore(ctx);
    return await fn(ctx);
  } finally {
    await ctx.commands.stop(); // a started command never outlives the call that started it
    await ctx.wakes.close(); // wake-ups of this process's last commits go out before the store closes
    await db.close();
  }
}

/** Migrates the store, then settles the publications and command runs a killed process left started, before anything else runs. */
export async function prepareStore(ctx: AppContext): Promise<void> {
  await migrate(ctx.db);
  await reconcileAtStart(ctx);
  await settleRunsLeftByACrash(ctx, (line) => process.stderr.write(`palimpsest: ${line}\n`));
}

export function describeStore(env: Readonly<Record<string, string | undefined>> = cliEnv()): string {
  if (env.DATABASE_URL) return `PostgreSQL (${redact(env.DATABASE_URL)})`;
  return `embedded PGlite (${env.PALIMPSEST_DATA_DIR || '.palimpsest/data'})`;
}

function redact(url: string): string {
  return url.replace(/\/\/([^:@/]+):[^@/]*@/, '//$1:***@');
}

export function printJson(value: unknown): void {
  process.stdout.write(`${JSON.stringify(value, null, 2)}\n`);
}
