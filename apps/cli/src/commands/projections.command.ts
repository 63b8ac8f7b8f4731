import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { rebuildProjections, type RebuildReport } from '@palimpsest/projections/rebuild/rebuild-projections';
import { printJson } from '../runtime';
import { withStore } from '../store-access';
import { registerProjectionsStatus } from './projections-status';
import { rebuildOnlineCommand } from './projections-rebuild-online';

export function registerProjections(program: Command): void {
  const projections = program.command('projections').description('Operate the read models');
  registerProjectionsStatus(projections);
  projections
    .command('rebuild [name]')
    .description('Drop every read model, rebuild it from the events, and prove it equal to what it replaced')
    .option('--online', 'rebuild beside the live models while the service goes on, then swap (name: inline or an async projection)')
    .option('--no-progress', 'no progress bar')
    .action(async (name: string | undefined, opts: { progress: boolean; online?: boolean }) => {
      if (opts.online) return rebuildOnlineCommand(name, opts);
      if (name !== undefined) throw new Error('a name needs --online: the stop-the-world rebuild rebuilds every inline model');
      const bar = opts.progress && process.stderr.isTTY ? new SingleBar({ stream: process.stderr }, Presets.shades_classic) : null;
      const report = await withStore({
        local: (ctx) =>
          rebuildProjections(ctx.db, {
            onProgress: ({ done, total }) => {
              if (!bar) return;
              if (done === 1) bar.start(total, 0);
              bar.update(done);
            },
          }),
        gateway: async (gw) => {
          if (bar) process.stderr.write(`rebuilding through ${gw.label} (no progress bar)\n`);
          const { status: _ok, ...rebuilt } = await gw.send<RebuildReport & { status: string }>('POST', '/v1/projections/rebuild');
          return rebuilt;
        },
      });
      bar?.stop();
      printJson(report);
      if (!report.equal) process.exitCode = 1;
    });
}
