import { PROCESS_LIMITS } from '@palimpsest/workspace/process/process-limits';
import { runToEnd } from '@palimpsest/workspace/process/process-manager';
import type { AppContext } from '../../app-context';
import type { HandlerSession } from '../../dispatch/operation-handler';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { beginRun, type RunRequest } from '../shared/begin-run';

/**
 * run_command: one command to its end at the workspace root, stdin closed, its group stopped at the
 * timeout (60 s default, 300 s at most); stdout and stderr each keep their last 200 KB. The answer comes
 * once the run's exit is on the record.
 */
export async function runCommand(ctx: AppContext, input: RunRequest, session: HandlerSession): Promise<Result<OP.run_command>> {
  const timeoutMs = input.timeoutMs ?? PROCESS_LIMITS.DEFAULT_COMMAND_TIMEOUT_MS;
  const begun = await beginRun(ctx, session, OP.run_command, { ...input, timeoutMs });
  if (begun.kind === 'answer') return begun.answer;
  const outcome = await runToEnd(begun.run.process, timeoutMs);
  await begun.run.settled;
  return {
    status: 'ok',
    command: input.command,
    exitCode: outcome.exit.code,
    stdout: outcome.stdout,
    stderr: outcome.stderr,
    truncated: outcome.truncated,
    timedOut: outcome.timedOut,
    signal: outcome.exit.signal,
    runId: begun.run.record.runId,
  };
}
