import type { AppContext } from '../../app-context';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { noProcesses } from '../shared/command-answers';
import { endedRun, isRefusal } from '../shared/ended-run';

export interface GetCommandOutputInput {
  processId: string;
  cursor?: number;
  waitMs?: number;
}

/**
 * get_command_output: the output past `cursor` (at most 100 KB), first waiting up to waitMs for some or
 * for the exit. Reads record nothing. `skipped` when the 256 KB ring had overtaken the cursor.
 */
export async function getCommandOutput(ctx: AppContext, input: GetCommandOutputInput): Promise<Result<OP.get_command_output>> {
  const processes = ctx.commands.processes;
  if (!processes) return noProcesses(OP.get_command_output);
  const p = processes.get(input.processId);
  if (!p) return outputOfEnded(ctx, input.processId, input.cursor ?? 0);
  const read = await processes.read(p, input.cursor ?? 0, input.waitMs ?? 0);
  return {
    status: 'ok',
    processId: input.processId,
    chunk: read.chunk,
    nextCursor: read.nextCursor,
    skipped: read.skippedBytes > 0,
    running: read.running,
    exitCode: read.exit?.code ?? null,
    skippedBytes: read.skippedBytes,
    signal: read.exit?.signal ?? null,
  };
}

/**
 * A run this process does not hold (it restarted since): its output went with the process that held it, so
 * what lay past the cursor is skipped, as when the ring overtakes a cursor; the end is the record's.
 */
async function outputOfEnded(ctx: AppContext, processId: string, cursor: number): Promise<Result<OP.get_command_output>> {
  const ended = await endedRun(ctx, processId);
  if (isRefusal(ended)) return ended;
  const skippedBytes = Math.max(0, ended.outputBytes - cursor);
  return { status: 'ok', processId, chunk: '', nextCursor: cursor + skippedBytes, skipped: skippedBytes > 0, running: false, exitCode: ended.exitCode, skippedBytes, signal: ended.signal };
}
