import { Presets, SingleBar } from 'cli-progress';
import type { Command } from 'commander';
import { rebuildProjections, type RebuildReport } from '@palimpsest/projections/rebuild/rebuild-projections';
import { printJson } from '../runtime';
import { withStore } from '../store-access';
import { registerProjectionsStatus } from './projections-status';

export function registerProjections(program: Command): void {
  const projections = program.command('projections').description('Operate the read models');
  registerProjectionsStatus(projections);
  projections
    .command('rebuild')
    .description('Drop every read model, rebuild it from the events, and prove it equal to what it replaced')
    .option('--no-progress', 'no progress bar')
    .action(async (opts: { progress: boolean }) => {
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
