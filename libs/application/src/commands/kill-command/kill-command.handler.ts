import type { AppContext } from '../../app-context';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { noProcesses } from '../shared/command-answers';
import { endedRun, isRefusal } from '../shared/ended-run';

/**
 * kill_command: stops the command's whole group (SIGTERM, then SIGKILL within 2 s) and answers once the
 * kill and the exit are on the record. killed is false for a command that had already ended.
 */
export async function killCommand(ctx: AppContext, input: { processId: string }): Promise<Result<OP.kill_command>> {
  if (!ctx.commands.processes) return noProcesses(OP.kill_command);
  const run = ctx.commands.runs.get(input.processId);
  if (!run) return killedBefore(ctx, input.processId);
  const wasRunning = run.process.running;
  const exit = await run.process.kill(OP.kill_command);
  await run.settled;
  return { status: 'ok', processId: input.processId, killed: wasRunning, exitCode: exit.code, signal: exit.signal };
}

/** A run this process does not hold: one the record ended answers as already ended (a kill sent again after a restart). */
async function killedBefore(ctx: AppContext, processId: string): Promise<Result<OP.kill_command>> {
  const ended = await endedRun(ctx, processId);
  if (isRefusal(ended)) return ended;
  return { status: 'ok', processId, killed: false, exitCode: ended.exitCode, signal: ended.signal };
}
