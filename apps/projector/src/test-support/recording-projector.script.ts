/**
 * A real projector process for the crash tests (projector-process.ts spawns it): the Nest microservice
 * (startProjector) with the recording test projection, configured by env, on the store the env names.
 * With EXIT_WHEN_CAUGHT_UP=1 it stops cleanly (exit 0) once it leads and has no lag left, so a test on
 * the embedded store (one process at a time) can look afterwards. SIGTERM stops it cleanly too.
 */
import { openDb } from '@palimpsest/store/open-db';
import { readStoreConfig } from '@palimpsest/store/store-config';
import { CRASH_POINT_ENV, armCrashPoint } from '@palimpsest/testing/crash-point';
import { startProjector } from '../projector';
import { recordingProjection } from './recording.projection';

async function main(): Promise<void> {
  const env = process.env;
  armCrashPoint(env[CRASH_POINT_ENV]);
  const db = await openDb({}, readStoreConfig(env, process.cwd()));
  const projector = await startProjector(db, {
    projections: [recordingProjection(env.PROJECTOR_TEST_NAME!, env.PROJECTOR_TEST_TABLE!)],
    runner: { batchSize: Number(env.PROJECTOR_TEST_BATCH || 50), pollMs: 50, leaseRetryMs: 200, leasePeriodMs: Number(env.PROJECTOR_TEST_LEASE_MS || 3_000) },
  });
  let stopping = false;
  const stop = async (code: number) => {
    if (stopping) return;
    stopping = true;
    await projector.close();
    await db.close();
    process.exit(code);
  };
  process.on('SIGTERM', () => void stop(0));
  process.stdout.write('ready\n');
  if (env.EXIT_WHEN_CAUGHT_UP !== '1') return;
  for (;;) {
    await new Promise((resolve) => setTimeout(resolve, 100));
    const [status] = await projector.transport.statuses();
    if (status && status.leader !== null && status.state === 'running' && status.lag_events === 0) return stop(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`recording projector failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
