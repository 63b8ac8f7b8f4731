import type { Command } from 'commander';
import { replayTargetQuery } from '@palimpsest/application/replay-target/replay-target.handler';
import { printJson, withApp } from '../runtime';

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Reconstruct a target from its events and compare with the materialized state (never repairs)')
    .argument('<target>', 'target UUID')
    .action(async (target: string) => {
      const report = await withApp((ctx) => replayTargetQuery(ctx, { target_file_id: target }));
      printJson(report);
      const r = report as Record<string, unknown>;
      if (r.status === 'invalid_argument' || r.status === 'not_found') process.exitCode = 2; // nothing to replay
      else if (r.status !== 'success' || r.materialized_state_matches !== true) process.exitCode = 1;
    });
}
