import type { Command } from 'commander';
import { ARCHIVE_BOUND_HELP, archiveBefore, archiveBoundOf, LogArchiveRefusedError, type ArchiveBound } from '@palimpsest/store/log-archive';
import { listLogPartitions, rollLog, type ArchivedPartition, type LogPartitions } from '@palimpsest/store/log-partitions';
import { UsageError } from '../cli-errors';
import { printJson } from '../runtime';
import { withStore } from '../store-access';

/**
 * `palimpsest log partitions | roll | archive`: the partitions of the event log (docs/deployment.md,
 * "The partitioned log"). On the store itself, or through the gateway that holds the embedded store
 * (/v1/admin/log/…), so that the service goes on while its log rolls and archives.
 */
export function registerLog(program: Command): void {
  const log = program.command('log').description('The partitions of the event log: list them, roll to a new one, archive old ones');
  log
    .command('partitions')
    .description('List the attached partitions (one per epoch; appends go to the current one) and the archived ones')
    .action(async () => {
      const listed = await withStore<LogPartitions>({
        local: (ctx) => listLogPartitions(ctx.db),
        gateway: async (gw) => withoutStatus(await gw.send<LogPartitions & { status: 'ok' }>('GET', '/v1/admin/log/partitions')),
      });
      printJson(listed);
    });
  log
    .command('roll')
    .description('Start a new epoch: appends go to a new partition (writers wait, never fail, while it switches)')
    .option('--lock-timeout <ms>', 'how long to wait for writers in flight (default 5000)')
    .action(async (opts: { lockTimeout?: string }) => {
      const lockTimeoutMs = opts.lockTimeout === undefined ? undefined : positiveInteger('--lock-timeout', opts.lockTimeout);
      const epoch = await withStore<number>({
        local: (ctx) => rollLog(ctx.db, { lockTimeoutMs }),
        gateway: async (gw) => (await gw.send<{ current_epoch: number }>('POST', '/v1/admin/log/roll', lockTimeoutMs === undefined ? {} : { lock_timeout_ms: lockTimeoutMs })).current_epoch,
      });
      printJson({ current_epoch: epoch });
    });
  log
    .command('archive')
    .description('Detach every closed epoch wholly before a position or a time into the schema palimpsest_archive (still read by replay)')
    .requiredOption('--before <position|date>', 'a global position, or an ISO 8601 time (e.g. 2026-01-01T00:00:00Z)')
    .action(async (opts: { before: string }) => {
      const bound = boundOf(opts.before);
      const archived = await withStore<ArchivedPartition[]>({
        local: async (ctx) => {
          try {
            return await archiveBefore(ctx.db, bound);
          } catch (error) {
            if (error instanceof LogArchiveRefusedError) throw new UsageError(error.message);
            throw error;
          }
        },
        gateway: async (gw) => (await gw.send<{ archived: ArchivedPartition[] }>('POST', '/v1/admin/log/archive', { before: opts.before })).archived,
      });
      printJson({ archived });
      if (archived.length === 0) process.stderr.write('nothing to archive: no closed epoch lies wholly before that bound (palimpsest log partitions; roll first to close the current one)\n');
    });
}

function withoutStatus<T extends { status: 'ok' }>(answer: T): Omit<T, 'status'> {
  const { status: _status, ...rest } = answer;
  return rest;
}

export function boundOf(before: string): ArchiveBound {
  const bound = archiveBoundOf(before);
  if (!bound) throw new UsageError(`--before ${JSON.stringify(before)} is ${ARCHIVE_BOUND_HELP}`);
  return bound;
}

function positiveInteger(option: string, value: string): number {
  const n = Number(value);
  if (!/^\d+$/.test(value) || !Number.isSafeInteger(n) || n < 1) throw new UsageError(`${option} must be a positive integer, got ${JSON.stringify(value)}`);
  return n;
}
