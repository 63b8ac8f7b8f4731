import type { Command } from 'commander';
import { archiveBefore, LogArchiveRefusedError, type ArchiveBound } from '@palimpsest/store/log-archive';
import { listLogPartitions, rollLog } from '@palimpsest/store/log-partitions';
import { UsageError } from '../cli-errors';
import { printJson } from '../runtime';
import { StoreHeldError, withStore } from '../store-access';

/**
 * `palimpsest log partitions | roll | archive`: the partitions of the event log (docs/deployment.md,
 * "The partitioned log"). Operator commands on the store itself: no gateway route goes through them.
 */
export function registerLog(program: Command): void {
  const log = program.command('log').description('The partitions of the event log: list them, roll to a new one, archive old ones');
  log
    .command('partitions')
    .description('List the attached partitions (one per epoch; appends go to the current one) and the archived ones')
    .action(async () => printJson(await local(async (ctx) => listLogPartitions(ctx.db))));
  log
    .command('roll')
    .description('Start a new epoch: appends go to a new partition (writers wait, never fail, while it switches)')
    .option('--lock-timeout <ms>', 'how long to wait for writers in flight (default 5000)')
    .action(async (opts: { lockTimeout?: string }) => {
      const lockTimeoutMs = opts.lockTimeout === undefined ? undefined : positiveInteger('--lock-timeout', opts.lockTimeout);
      printJson({ current_epoch: await local((ctx) => rollLog(ctx.db, { lockTimeoutMs })) });
    });
  log
    .command('archive')
    .description('Detach every closed epoch wholly before a position or a time into the schema palimpsest_archive (still read by replay)')
    .requiredOption('--before <position|date>', 'a global position, or an ISO 8601 time (e.g. 2026-01-01T00:00:00Z)')
    .action(async (opts: { before: string }) => {
      const bound = boundOf(opts.before);
      try {
        const archived = await local((ctx) => archiveBefore(ctx.db, bound));
        printJson({ archived });
        if (archived.length === 0) process.stderr.write('nothing to archive: no closed epoch lies wholly before that bound (palimpsest log partitions; roll first to close the current one)\n');
      } catch (error) {
        if (error instanceof LogArchiveRefusedError) throw new UsageError(error.message);
        throw error;
      }
    });
}

/** These commands run on the store itself; a gateway holding the embedded store has no route for them. */
function local<T>(fn: Parameters<typeof withStore<T>>[0]['local']): Promise<T> {
  return withStore<T>({
    local: fn,
    gateway: (gw) => {
      throw new StoreHeldError(`the log's partitions are managed on the store itself, and ${gw.label} holds it: stop it and run the command again`);
    },
  });
}

export function boundOf(before: string): ArchiveBound {
  if (/^\d+$/.test(before)) return { beforePosition: positiveInteger('--before', before) };
  const time = Date.parse(before);
  if (/^\d{4}-\d{2}-\d{2}/.test(before) && Number.isFinite(time)) return { beforeTime: new Date(time).toISOString() };
  throw new UsageError(`--before ${JSON.stringify(before)} is neither a global position nor an ISO 8601 time: give e.g. --before 120000 or --before 2026-01-01T00:00:00Z`);
}

function positiveInteger(option: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${option} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
