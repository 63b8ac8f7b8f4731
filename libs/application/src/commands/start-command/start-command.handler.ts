import type { AppContext } from '../../app-context';
import type { HandlerSession } from '../../dispatch/operation-handler';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { beginRun, type RunRequest } from '../shared/begin-run';

/** start_command: starts a command at the workspace root and answers at once with its handle (the run id). */
export async function startCommand(ctx: AppContext, input: Omit<RunRequest, 'timeoutMs'>, session: HandlerSession): Promise<Result<OP.start_command>> {
  const begun = await beginRun(ctx, session, OP.start_command, input);
  if (begun.kind === 'answer') return begun.answer;
  return { status: 'ok', processId: begun.run.record.runId, command: input.command, pid: begun.run.process.pid };
}
