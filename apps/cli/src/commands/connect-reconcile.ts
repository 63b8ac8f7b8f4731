import type { AppContext } from '@palimpsest/application/app-context';
import { unifiedDiff } from '@palimpsest/application/file-tools/shared/unified-diff';
import { foldTextAt } from '@palimpsest/application/history/as-of/text-as-of';
import type { CommandRunEvent, StreamDigest } from '@palimpsest/core/command-run/command-run.events';
import { loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import type { Outcome } from '@palimpsest/protocol/outcome';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/** The tools whose effect the project's record shows by request id: each write commits with it as its correlation id. */
export const RECONCILED_TOOLS: ReadonlySet<string> = new Set(['edit_file', 'write_file']);

interface Accepted {
  event_type: 'ProposalAccepted' | 'TargetInitialized';
  data: { target_id: string; attempt_id?: string; before_version?: number; after_version?: number; after_hash?: string; current_hash?: string };
  xid: string;
  stream_id: string;
  stream_version: string;
}

interface JournalFile {
  path: string;
  target_id: string;
  disk_sha256?: string;
  bytes_written?: number;
  content_eol?: 'lf' | 'crlf' | 'cr';
}

/**
 * A write (edit_file, write_file) this executor started for `requestId` and never answered (killed in the
 * middle, or its run threw): whether it applied, from the project's own record. The file tools commit a
 * write's acceptance (or a new file's target) with the request id as its correlation id, in the very
 * transaction that completes its publication; and a journal a killed process left open is settled when the
 * store opens (a write's journal is rolled back: its acceptance never committed). So an acceptance on the
 * record is a write that applied, answered here as the tool answered it, rebuilt from the record (the
 * acceptance, its publication, the text before and after); none is a write that did not apply (null).
 */
export async function recordedWrite(ctx: AppContext, requestId: string, tool: string): Promise<Outcome | null> {
  const { rows } = await ctx.db.query<Accepted>(
    `SELECT event_type, data, transaction_xid::text AS xid, stream_id, stream_version
       FROM ${everyEventWhere("metadata->>'correlation_id' = $1 AND event_type IN ('ProposalAccepted', 'TargetInitialized')")} e
      ORDER BY global_position DESC LIMIT 1`,
    [requestId],
  );
  const accepted = rows[0];
  if (!accepted) return null;
  const targetId = accepted.data.target_id;
  const journal = await ctx.db.query<{ journal_id: string; completed: JournalFile[]; started: JournalFile[] }>(
    `SELECT c.data->>'journal_id' AS journal_id, c.data->'files' AS completed, s.data->'files' AS started
       FROM ${everyEventWhere("transaction_xid = $1::xid8 AND event_type = 'PublicationCompleted'")} c
       CROSS JOIN LATERAL ${everyEventWhere("stream_id = c.stream_id AND event_type = 'PublicationStarted'")} s`,
    [accepted.xid],
  );
  const j = journal.rows[0];
  const done = j?.completed.find((f) => f.target_id === targetId);
  const planned = j?.started.find((f) => f.target_id === targetId);
  if (!j || !done || !planned) throw new Error(`${tool} ${requestId}: an acceptance on the record without the publication that committed it`);
  const created = accepted.event_type === 'TargetInitialized';
  const version = created ? 0 : accepted.data.after_version!;
  const audit = {
    target_file_id: targetId,
    attempt_id: created ? null : accepted.data.attempt_id!,
    version,
    current_hash: created ? accepted.data.current_hash! : accepted.data.after_hash!,
    disk_sha256: done.disk_sha256!,
    content_eol: planned.content_eol ?? 'lf',
    ...(created ? { bound_now: true, external_attempt_id: null } : await takenFirst(ctx, accepted)),
    journal: { id: j.journal_id, state: 'committed' as const },
  };
  if (tool === 'write_file') return { status: 'ok', path: done.path, bytesWritten: done.bytes_written!, created, ...audit } as Outcome;
  const before = await foldTextAt(ctx, targetId, accepted.data.before_version!);
  const after = await foldTextAt(ctx, targetId, version);
  return { status: 'ok', path: done.path, replacements: 1, diff: unifiedDiff(done.path, before, after), ...audit } as Outcome;
}

/**
 * What a write did to its file before its acceptance, each in a transaction of its own that carries no
 * request id: bound it (the file's first touch: the binding is the event just before the acceptance on the
 * target's stream), or took in a change made outside (the take-in just before it, whose attempt the answer
 * names). A write's binding or take-in and its acceptance follow each other under the file's row lock; only
 * another call's write landing between them would be read wrongly, and the executor's calls to one file
 * are the only writers of its project's record.
 */
async function takenFirst(ctx: AppContext, accepted: Accepted): Promise<{ bound_now: boolean; external_attempt_id: string | null }> {
  const { rows } = await ctx.db.query<{ event_type: string; attempt_id: string | null }>(
    `SELECT event_type, data->>'attempt_id' AS attempt_id FROM ${everyEventWhere('stream_id = $1 AND stream_version < $2')} e ORDER BY stream_version DESC LIMIT 1`,
    [accepted.stream_id, accepted.stream_version],
  );
  const before = rows[0];
  return { bound_now: before?.event_type === 'WorkspaceFileBound', external_attempt_id: before?.event_type === 'WorkspaceFileRefreshed' ? before.attempt_id : null };
}

/** The command tools whose run the project's record shows by request id (the run's caller correlation id). */
export const COMMAND_TOOLS: ReadonlySet<string> = new Set(['run_command', 'start_command']);
/**
 * The tools run again when one started and never answered: they change nothing, or (kill_command) what
 * they change is the same done twice, and a process the restart stopped answers as already ended.
 */
const RERUN_TOOLS: ReadonlySet<string> = new Set(['read_file', 'list_files', 'grep', 'get_command_output', 'kill_command']);

/** Tools an executor runs without writing RelayCallSent first: their own record, or running them again, answers a resend. */
export const SELF_RECORDED_TOOLS: ReadonlySet<string> = new Set([...RECONCILED_TOOLS, ...COMMAND_TOOLS, ...RERUN_TOOLS]);

/**
 * send_command_input started and never answered: whether the input reached the process is unknown, and the
 * restart stopped that process (its cleanup kills every group a killed executor left).
 */
export function unknownInput(args: Record<string, unknown>, slug: string): Outcome {
  const processId = String(args.processId);
  return inDoubt(
    `send_command_input in project ${slug}: its executor stopped while it wrote to process ${processId} (\`palimpsest connect\` was killed or its machine went down); whether the input reached it is unknown, and the process was stopped with it. Tell the user; do not assume it was written or not.`,
    { operation: 'get_command_output', reason: 'How the process ended, as its record says.', params: { processId } },
  );
}

/** A call this executor stopped in the middle of: what it did is unknown, and the caller is told the step that is safe. */
function inDoubt(failureDetail: string, next: { operation: string; reason: string; params: Record<string, unknown> }, runId?: string): Outcome {
  return {
    status: 'invalid_argument',
    code: 'LOCAL_EXECUTOR_OFFLINE',
    answer: 'LOCAL_EXECUTOR_OFFLINE',
    retryable: 'none',
    outcome: 'unknown',
    ...(runId ? { runId } : {}),
    failure_detail: failureDetail,
    next_actions: [next],
  } as Outcome;
}

/**
 * A command (run_command, start_command) this executor started for `requestId` and never answered: its
 * run's record, rebuilt into the answer the caller can act on. Null when no run reached the record or the
 * policy refused it (nothing ran: it runs now as if it came for the first time). A run that exited before
 * the answer was lost answers its exit (its output's recorded tail); one the restart stopped (the crash
 * cleanup kills a group a killed executor left) answers LOCAL_EXECUTOR_OFFLINE with the outcome unknown.
 */
export async function recordedRun(ctx: AppContext, requestId: string, tool: string, args: Record<string, unknown>, slug: string): Promise<Outcome | null> {
  const { rows } = await ctx.db.query<{ run_id: string }>(
    `SELECT data->>'run_id' AS run_id FROM ${everyEventWhere("metadata->>'correlation_id' = $1 AND event_type = 'CommandRequested'")} e
      ORDER BY global_position DESC LIMIT 1`,
    [requestId],
  );
  const runId = rows[0]?.run_id;
  if (!runId) return null;
  const { events } = await loadCommandRun(ctx.db, runId);
  if (events.some((e) => e.type === 'CommandRefused' || e.type === 'CommandDeclined')) return null;
  const exited = events.find((e): e is Extract<CommandRunEvent, { type: 'CommandExited' }> => e.type === 'CommandExited')?.data;
  if (exited && tool === 'run_command') {
    const cut = (s: StreamDigest) => s.bytes > Buffer.byteLength(s.tail, 'utf8');
    const timedOut = events.some((e) => e.type === 'CommandKilled' && e.data.reason === 'timeout');
    return { status: 'ok', command: String(args.command), exitCode: exited.exit_code, stdout: exited.stdout.tail, stderr: exited.stderr.tail, truncated: cut(exited.stdout) || cut(exited.stderr), timedOut, signal: exited.signal, runId } as Outcome;
  }
  const killed = events.find((e): e is Extract<CommandRunEvent, { type: 'CommandKilled' }> => e.type === 'CommandKilled' && e.data.reason === 'crash_cleanup')?.data;
  const what = !killed ? 'its end is not on the record' : killed.outcome === 'gone' ? 'the command was stopped with it (nothing of it was left when it came back)' : `the command was ${killed.outcome} with everything it started when it came back`;
  const { command, timeoutMs } = args as { command: string; timeoutMs?: number };
  return inDoubt(
    `${tool} in project ${slug}: its executor stopped while the command ran (\`palimpsest connect\` was killed or its machine went down); ${what} (run ${runId}). Its output is lost and how far it got is unknown. Tell the user; do not assume it ran or did not.`,
    {
      operation: tool,
      reason: 'Only once running it again is known to be safe (look at what the interrupted run left first): run it again under a new client_request_id; this key answers this same outcome.',
      params: { command, ...(timeoutMs === undefined ? {} : { timeoutMs }) },
    },
    runId,
  );
}
