import type { Db } from '@palimpsest/store/db';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import type { StoreConfig } from '@palimpsest/store/store-config';
import { leaderIdentity } from '@palimpsest/projections/async/consumer-leases';
import { configuredProjector } from './configured-processors';
import { startProjector } from './projector';
import type { ProjectorConfig } from './projector-config';
import type { ProjectorOptions } from './projector-consumer';
import { stderrLogger } from './stderr-logger';

const say = (line: string) => process.stderr.write(`palimpsest projector: ${line}\n`);

/** SIGHUP (the terminal closing) stops as SIGINT does. */
const STOP_SIGNALS = ['SIGINT', 'SIGTERM', 'SIGHUP'] as const;

function nextSignal(): Promise<NodeJS.Signals> {
  return new Promise((resolve) => {
    const on = (signal: NodeJS.Signals) => {
      for (const s of STOP_SIGNALS) process.off(s, on);
      process.once(signal, () => process.exit(130)); // a second signal while stopping means "now"
      // After a hangup the terminal may be gone: a failed write to it must not end the stop half-way.
      if (signal === 'SIGHUP') for (const stream of [process.stdout, process.stderr]) stream.on('error', () => undefined);
      resolve(signal);
    };
    for (const s of STOP_SIGNALS) process.on(s, on);
  });
}

/**
 * `palimpsest projector` with the configuration its entry read (projectorConfigFrom, readStoreConfig): open and migrate
 * the store, follow the log until SIGINT/SIGTERM/SIGHUP, then finish the batches in progress, give up
 * the leases and close. Throws DataDirInUseError (from the open) when another process owns the embedded store.
 */
export async function runProjector(storeLabel: string, config: ProjectorConfig, storeConfig: StoreConfig, opts: ProjectorOptions = {}, db?: Db): Promise<void> {
  const stop = nextSignal();
  const store = db ?? (await openDb({}, storeConfig));
  try {
    await migrate(store);
    const onError = (error: unknown, processor: string) => say(`${processor}: ${error instanceof Error ? error.message : String(error)}`);
    const configured = configuredProjector(config, stderrLogger('palimpsest projector'), onError);
    const projector = await startProjector(store, { ...configured, ...opts, runner: { ...configured.runner, ...opts.runner } });
    const names = projector.processors.map((c) => c.name);
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
