import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { workspaceNotConfigured } from '../../shared/workspace-not-configured';

/**
 * The command tools' refusals. Each names, beside our finer `code`, the drop-in `answer` an agent
 * written against the drop-in tools branches on (FORBIDDEN, APPROVAL_DECLINED, INVALID_ARGUMENTS, …).
 */

export const noProcesses = (tool: string): InvalidArgument =>
  workspaceNotConfigured(`${tool} runs commands at the workspace root`, { answer: 'INVALID_ARGUMENTS' });

export const forbidden = (rule: string, reason: string, runId: string | null): Refusal<'rejected'> => ({
  status: 'rejected',
  code: 'FORBIDDEN',
  answer: 'FORBIDDEN',
  rule,
  failure_detail: `${reason} This is an answer, not an obstacle: say what was refused and stop; do not reshape the command or route around it.`,
  ...(runId ? { runId } : {}),
});

export const approvalDeclined = (rule: string, runId: string): Refusal<'rejected'> => ({
  status: 'rejected',
  code: 'APPROVAL_DECLINED',
  answer: 'APPROVAL_DECLINED',
  rule,
  runId,
  failure_detail: 'A person declined this command; nothing ran. This is an answer, not an obstacle: say what was refused and stop.',
});

export const approvalTimeout = (rule: string, runId: string, waitedMs: number): Refusal<'rejected'> => ({
  status: 'rejected',
  code: 'APPROVAL_TIMEOUT',
  answer: 'APPROVAL_TIMEOUT',
  rule,
  runId,
  failure_detail: `No person decided on this command within ${waitedMs} ms; nothing ran. This is an answer, not an obstacle: say what was refused and stop.`,
});

export const tooManyProcesses = (live: number, runId: string): Refusal<'rejected'> => ({
  status: 'rejected',
  code: 'too_many_processes',
  answer: 'TOOL_FAILED',
  runId,
  failure_detail: `${live} processes are live, the most a project holds: kill_command one you started before starting another.`,
});

export const spawnFailed = (detail: string, runId: string): Refusal<'rejected'> => ({
  status: 'rejected',
  code: 'spawn_failed',
  answer: 'TOOL_FAILED',
  runId,
  failure_detail: `The command could not be started: ${detail.trim()}`,
});

/** `unended`: the record has the run started and not ended, in a process other than this one. */
export const processNotFound = (processId: string, unended = false): Refusal<'not_found'> => ({
  status: 'not_found',
  code: 'PROCESS_NOT_FOUND',
  answer: 'INVALID_ARGUMENTS',
  failure_detail: unended
    ? `Process ${processId} is on the record as started and not ended, but another Palimpsest process holds it (the one that started it; or that one stopped and its restart has not settled it yet): send the call there.`
    : `No process ${JSON.stringify(processId)} was started here: send a processId start_command answered.`,
});

/** `how`: how the record ended a process this one no longer holds. */
export const notRunning = (processId: string, how?: string): Refusal<'rejected'> => ({
  status: 'rejected',
  code: 'process_not_running',
  answer: 'TOOL_FAILED',
  failure_detail: how
    ? `Process ${processId} is not running: it ${how}. Nothing was written.`
    : `Process ${processId} is not running (or its stdin is closed): nothing was written. Read its output with get_command_output.`,
});

export const rootOnly = (cwd: string): InvalidArgument =>
  invalidArgument('cwd_not_supported', `Commands run at the project root, never elsewhere: cwd ${JSON.stringify(cwd)} is refused. Omit cwd (or send ".").`, {
    argument: 'cwd',
    answer: 'INVALID_ARGUMENTS',
  });
