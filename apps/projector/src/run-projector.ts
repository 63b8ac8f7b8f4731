import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { leaderIdentity } from '@palimpsest/projections/async/consumer-leases';
import type { ProjectorOptions } from './log-follower';
import { startProjector } from './projector';
import { environmentConsumers } from './relay-consumer';
import { stderrLogger } from './stderr-logger';

const say = (line: string) => process.stderr.write(`palimpsest projector: ${line}\n`);

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      process.off('SIGINT', on);
      process.off('SIGTERM', on);
      process.once(signal, () => process.exit(130)); // a second signal while stopping means "now"
      resolve(signal);
    };
    process.on('SIGINT', on);
    process.on('SIGTERM', on);
  });
}

/**
 * `palimpsest projector`: open and migrate the store, follow the log until SIGINT/SIGTERM, then finish
 * the batches in progress, give up the leases and close. Throws DataDirInUseError (from the open) when
 * another process owns the embedded store.
 */
export async function runProjector(storeLabel: string, opts: ProjectorOptions = {}, db?: Db): Promise<void> {
  const stop = nextSignal();
  const store = db ?? (await openDb());
  try {
    await migrate(store);
    const projector = await startProjector(store, {
      consumers: environmentConsumers(store, process.env, stderrLogger('palimpsest projector')),
      ...opts,
      runner: { onError: (error, consumer) => say(`${consumer}: ${error instanceof Error ? error.message : String(error)}`), ...opts.runner },
    });
    const names = projector.consumers.map((c) => c.name);
    say(`store ${storeLabel}; ${leaderIdentity()} following ${names.length ? names.join(', ') : 'no consumer (none registered)'}`);
    say('ready');
    const signal = await stop;
    say(`${signal}: finishing the batches in progress`);
    await projector.close();
    say('stopped');
  } finally {
    await store.close();
  }
}
