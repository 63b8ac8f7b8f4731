import type { AppContext } from '../../app-context';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { noProcesses, processNotFound } from '../shared/command-answers';

/**
 * kill_command: stops the command's whole group (SIGTERM, then SIGKILL within 2 s) and answers once the
 * kill and the exit are on the record. killed is false for a command that had already ended.
 */
export async function killCommand(ctx: AppContext, input: { processId: string }): Promise<Result<OP.kill_command>> {
  if (!ctx.commands.processes) return noProcesses(OP.kill_command);
  const run = ctx.commands.runs.get(input.processId);
  if (!run) return processNotFound(input.processId);
  const wasRunning = run.process.running;
  const exit = await run.process.kill(OP.kill_command);
  await run.settled;
  return { status: 'ok', processId: input.processId, killed: wasRunning, exitCode: exit.code, signal: exit.signal };
}
