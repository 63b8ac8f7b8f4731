/**
 * A real projector process for the crash tests (projector-process.ts spawns it): the Nest microservice
 * (startProjector) with the recording test projection, configured by env, on the store the env names.
 * With EXIT_WHEN_CAUGHT_UP=1 it stops cleanly (exit 0) once it leads and has no lag left, so a test on
 * the embedded store (one process at a time) can look afterwards. SIGTERM stops it cleanly too.
 * With PROJECTOR_TEST_SHARDS=N it runs N recording projections (`<name>-<i>` into `<table>_<i>`), the
 * shards the processes share; with PROJECTOR_TEST_STOP_AT=N it stops itself (SIGSTOP) in its Nth batch,
 * between the projection's writes and the checkpoint update, after printing `stopped <shard>`, so a test
 * can make it lose its lease there and SIGCONT it: a fenced stale process.
 */
import { openDb } from '@palimpsest/store/open-db';
import { readStoreConfig } from '@palimpsest/store/store-config';
import { CRASH_POINT_ENV, armCrashPoint } from '@palimpsest/testing/crash-point';
import { startProjector } from '../projector';
import type { AsyncProjection } from '@palimpsest/projections/async/async-projection.port';
import { recordingProjection } from './recording.projection';

/** The recording projection, stopping this process mid-batch at the `stopAt`th batch of any of them. */
function stoppingAt(projection: AsyncProjection, batches: { seen: number; stopAt: number }): AsyncProjection {
  return {
    ...projection,
    async apply(tx, events) {
      await projection.apply(tx, events);
      batches.seen += 1;
      if (batches.seen !== batches.stopAt) return;
      // Stopped here, before the batch's checkpoint update, until the test sends SIGCONT.
      await new Promise<void>((resolve) => process.stdout.write(`stopped ${projection.name}\n`, () => resolve(void process.kill(process.pid, 'SIGSTOP'))));
    },
  };
}

async function main(): Promise<void> {
  const env = process.env;
  armCrashPoint(env[CRASH_POINT_ENV]);
  const db = await openDb({}, readStoreConfig(env, process.cwd()));
  const shards = Number(env.PROJECTOR_TEST_SHARDS || 0);
  const batches = { seen: 0, stopAt: Number(env.PROJECTOR_TEST_STOP_AT || 0) };
  const projections = shards
    ? Array.from({ length: shards }, (_, i) => stoppingAt(recordingProjection(`${env.PROJECTOR_TEST_NAME}-${i}`, `${env.PROJECTOR_TEST_TABLE}_${i}`), batches))
    : [recordingProjection(env.PROJECTOR_TEST_NAME!, env.PROJECTOR_TEST_TABLE!)];
  const projector = await startProjector(db, {
    projections,
    runner: {
      onError: (error, processor) => void process.stderr.write(`${processor}: ${error instanceof Error ? error.message : String(error)}\n`), batchSize: Number(env.PROJECTOR_TEST_BATCH || 50), pollMs: 50, leaseRetryMs: 200, leasePeriodMs: Number(env.PROJECTOR_TEST_LEASE_MS || 3_000) },
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
    const statuses = await projector.transport.statuses();
    if (statuses.every((status) => status.leader !== null && status.state === 'running' && status.lag_events === 0)) return stop(0);
  }
}

main().catch((error: unknown) => {
  process.stderr.write(`recording projector failed: ${error instanceof Error ? error.stack : String(error)}\n`);
  process.exit(1);
});
