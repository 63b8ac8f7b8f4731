import type { Command } from 'commander';
import { migrate } from '@palimpsest/store/migrate';
import { describeStore } from '../runtime';
import { withStore } from '../store-access';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending migrations (forward-only; each recorded once)')
    .action(async () => {
      const progress = (name: string) => process.stderr.write(`applying ${name}\n`);
      const applied = await withStore(
        {
          local: async (ctx) => (await migrate(ctx.db, { onProgress: progress })).applied,
          gateway: async (gw) => {
            // The gateway migrated when it opened the store; this applies only what appeared since.
            process.stderr.write(`migrating through ${gw.label}\n`);
            const { applied: now } = await gw.send<{ applied: string[] }>('POST', '/v1/admin/migrate');
            now.forEach(progress);
            return now;
          },
        },
        { migrate: false },
      );
      process.stdout.write(applied.length ? `applied ${applied.length} migration(s) to ${describeStore()}\n` : `${describeStore()} is up to date\n`);
    });
}
