import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { readStoreConfig } from '@palimpsest/store/store-config';
import { CRASH_POINT_ENV, armCrashPoint } from '@palimpsest/testing/crash-point';
import { NatsRelay } from './nats-relay';
import { RELAY_ENV, relayOptionsFromEnv, type RelayLogger } from './relay-config';

/**
 * The relay alone as a process (its crash tests run it; the projector runs RelayProcessor in its one consumer):
 * the store from DATABASE_URL / PALIMPSEST_DATA_DIR, NATS from PALIMPSEST_NATS_URL (docs/relay.md).
 * Logs JSON lines on stdout; SIGTERM or SIGINT finishes the batch in flight and exits 0.
 * Without PALIMPSEST_NATS_URL it says the relay is off and exits 0.
 */
const jsonLines: RelayLogger = {
  info: (fields, msg) => line('info', fields, msg),
  warn: (fields, msg) => line('warn', fields, msg),
  error: (fields, msg) => line('error', fields, msg),
};

function line(level: string, fields: object, msg: string): void {
  const err = (fields as { err?: unknown }).err;
  const extra = err instanceof Error ? { err: { message: err.message, name: err.name } } : {};
  process.stdout.write(`${JSON.stringify({ level, msg, ...fields, ...extra })}\n`);
}

export async function runRelay(env: NodeJS.ProcessEnv = process.env): Promise<void> {
  const options = relayOptionsFromEnv(env, jsonLines);
  if (!options) {
    jsonLines.info({ env: RELAY_ENV.url }, 'relay off');
    return;
  }
  armCrashPoint(env[CRASH_POINT_ENV]);
  const db = await openDb({}, readStoreConfig(env, process.cwd()));
  await migrate(db);
  const relay = new NatsRelay(db, options);
  await relay.start();
  const stop = async () => {
    await relay.stop();
    await db.close();
    jsonLines.info(relay.metrics(), 'relay stopped');
    process.exit(0);
  };
  process.once('SIGTERM', () => void stop());
  process.once('SIGINT', () => void stop());
}

if (require.main === module) {
  runRelay().catch((error: unknown) => {
    jsonLines.error({ err: error }, 'relay failed to start');
    process.exit(1);
  });
}
