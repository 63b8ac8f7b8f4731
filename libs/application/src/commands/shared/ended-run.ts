import type { CommandRunEvent } from '@palimpsest/core/command-run/command-run.events';
import { loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import type { Refusal } from '@palimpsest/protocol/refusal';
import type { AppContext } from '../../app-context';
import { processNotFound } from './command-answers';

/** A run this process does not hold, as its record ended it: exited, or stopped by a restart's cleanup. */
export interface EndedRun {
  exitCode: number | null;
  signal: string | null;
  /** stdout and stderr as written, in bytes: where a cursor stood at the end (unknown after a cleanup: 0). */
  outputBytes: number;
  /** How it ended, for a refusal's detail. */
  how: string;
}

type Ended<T extends CommandRunEvent['type']> = Extract<CommandRunEvent, { type: T }>['data'];

/**
 * What the record says of a process id this process does not hold (it restarted since, or another process
 * started it): how it ended, or PROCESS_NOT_FOUND when no run started under it or its end is not on the record.
 */
export async function endedRun(ctx: AppContext, processId: string): Promise<EndedRun | Refusal<'not_found'>> {
  const { events } = await loadCommandRun(ctx.db, processId);
  const of = <T extends CommandRunEvent['type']>(type: T) => events.find((e) => e.type === type)?.data as Ended<T> | undefined;
  if (!of('CommandRequested') || of('CommandRefused') || of('CommandDeclined')) return processNotFound(processId);
  const exited = of('CommandExited');
  if (exited) {
    return { exitCode: exited.exit_code, signal: exited.signal, outputBytes: exited.stdout.bytes + exited.stderr.bytes, how: exited.signal ? `ended by ${exited.signal}` : `exited with code ${exited.exit_code}` };
  }
  const cleanup = events.map((e) => e.data).find((d): d is Ended<'CommandKilled'> => 'reason' in d && d.reason === 'crash_cleanup');
  if (!cleanup) return processNotFound(processId, true);
  const signal = cleanup.outcome === 'killed' ? 'SIGKILL' : cleanup.outcome === 'terminated' ? 'SIGTERM' : null;
  return { exitCode: null, signal, outputBytes: 0, how: `stopped when the process that ran it restarted (${cleanup.outcome === 'gone' ? 'nothing of it was left' : cleanup.outcome})` };
}

export const isRefusal = (ended: EndedRun | Refusal<'not_found'>): ended is Refusal<'not_found'> => 'status' in ended;
