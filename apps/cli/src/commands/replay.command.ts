import type { Command } from 'commander';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { withOneRetryable } from '@palimpsest/protocol/refusal-shape';
import { targetIdOf } from '@palimpsest/application/shared/target-lookup';
import type { GatewayClient } from '../gateway-client';
import { printJson } from '../runtime';
import { withStore } from '../store-access';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export function registerReplay(program: Command): void {
  program
    .command('replay')
    .description('Reconstruct a target from its events and compare with the materialized state (never repairs)')
    .argument('<target>', 'target UUID')
    .action(async (target: string) => {
      const report = await withStore<Record<string, unknown>>({
        // dispatch, as the gateway's route does: the same answer either way (its retryable included).
        local: (ctx) => dispatch(ctx, OP.palimpsest_replay, { target_file_id: target }),
        gateway: (gw) => replayThrough(gw, target),
      });
      printJson(report);
      if (report.status === 'invalid_argument' || report.status === 'not_found') process.exitCode = 2; // nothing to replay
      else if (report.status !== 'success' || report.materialized_state_matches !== true) process.exitCode = 1;
    });
}

/** POST /v1/targets/:id/replay; the report without the HTTP error envelope a 404 adds (the CLI prints the operation's answer). */
async function replayThrough(gw: GatewayClient, target: string): Promise<Record<string, unknown>> {
  const { id, error } = targetIdOf(target);
  if (error) return withOneRetryable(error); // refused before any store access, as dispatch answers it locally
  const answer = await gw.request('POST', `/v1/targets/${id}/replay`);
  if (answer.status === 200) return answer.body!;
  if (answer.status !== 404 || answer.body?.status !== 'not_found') throw gw.failure(answer);
  const { error: _envelope, ...report } = answer.body;
  return report;
}
