import type { Command } from 'commander';
import { DataDirInUseError } from '@palimpsest/store/errors';
import { describeStore } from '../runtime';
import { StoreHeldError } from '../store-access';
import { cliEnv } from '../cli-config';

/** `palimpsest projector`: the asynchronous projections as their own process (Nest is loaded only when it runs). */
export function registerProjector(program: Command): void {
  program
    .command('projector')
    .description('Follow the event log with every asynchronous read model (one leader per model across processes) until stopped')
    .action(async () => {
      const [{ runProjector }, { projectorConfigFrom }, { readStoreConfig }] = await Promise.all([
        import('@palimpsest/projector/run-projector'),
        import('@palimpsest/projector/projector-config'),
        import('@palimpsest/store/store-config'),
      ]);
      const env = cliEnv();
      try {
        await runProjector(describeStore(), projectorConfigFrom(env), readStoreConfig(env, process.cwd()));
      } catch (error) {
        if (!(error instanceof DataDirInUseError)) throw error;
        throw new StoreHeldError(
          `data directory is in use by pid ${error.pid} (${error.dataDir}): the process that owns the embedded store runs its projector ` +
            'in-process (`palimpsest api` does), so there is nothing to start here; run a separate projector against PostgreSQL (DATABASE_URL)',
        );
      }
    });
}
