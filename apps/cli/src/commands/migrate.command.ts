import type { Command } from 'commander';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { describeStore } from '../runtime';

export function registerMigrate(program: Command): void {
  program
    .command('migrate')
    .description('Apply pending migrations (forward-only; each recorded once)')
    .action(async () => {
      const db = await openDb();
      try {
        const { applied } = await migrate(db, { onProgress: (name) => process.stderr.write(`applying ${name}\n`) });
        process.stdout.write(
          applied.length ? `applied ${applied.length} migration(s) to ${describeStore()}\n` : `${describeStore()} is up to date\n`,
        );
      } finally {
        await db.close();
      }
    });
}
