import type { Command } from 'commander';
import { lagThresholdFrom, projectorStatus, type ProjectorStatus } from '@palimpsest/application/queries/projector-status.handler';
import { printJson } from '../runtime';
import { withStore } from '../store-access';
import { cliEnv } from '../cli-config';

/** `palimpsest projections status`: every asynchronous consumer's checkpoint, lag, state and leader. */
export function registerProjectionsStatus(projections: Command): void {
  projections
    .command('status')
    .description('List each asynchronous read model (and the relay) with checkpoint, lag in events and seconds, state and leader')
    .option('--json', 'print the status as JSON')
    .action(async (opts: { json?: boolean }) => {
      const threshold = lagThresholdFrom(cliEnv());
      const status = await withStore<ProjectorStatus>({
        local: (ctx) => projectorStatus(ctx.db, threshold),
        gateway: async (gw) => {
          const health = await gw.send<{ status: string; info: { projections: Omit<ProjectorStatus, 'status'> & { degraded: boolean } } }>('GET', '/health');
          const { degraded, ...rest } = health.info.projections;
          return { status: degraded ? 'degraded' : 'ok', ...rest };
        },
      });
      if (opts.json) printJson(status);
      else process.stdout.write(statusTable(status));
    });
}

function statusTable(status: ProjectorStatus): string {
  const header = ['CONSUMER', 'KIND', 'STATE', 'CHECKPOINT', 'LAG EVENTS', 'LAG SECONDS', 'LEADER'];
  const rows = status.consumers.map((c) => [c.name, c.kind, c.state, String(c.checkpoint.position), String(c.lag_events), c.lag_seconds.toFixed(1), c.leader ?? '-']);
  const widths = header.map((h, i) => Math.max(h.length, ...rows.map((r) => r[i]!.length)));
  const line = (cells: string[]) => `${cells.map((cell, i) => cell.padEnd(widths[i]!)).join('  ').trimEnd()}\n`;
  const summary = status.status === 'degraded'
    ? `degraded: ${status.lagging.join(', ')} ${status.lagging.length === 1 ? 'lags' : 'lag'} by more than ${status.lag_threshold_seconds} s\n`
    : `ok (degraded past a lag of ${status.lag_threshold_seconds} s)\n`;
  if (rows.length === 0) return `no asynchronous consumer registered\n${summary}`;
  return [line(header), ...rows.map(line), summary].join('');
}
