import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { COMMAND_TAIL_BYTES, type CommandTool, type KillReason, type RecordedDecision, type StreamDigest } from '@palimpsest/core/command-run/command-run.events';
import type { CommandDecision } from '@palimpsest/core/policy/command-decision';
import { ALLOW_ALL, READ_ONLY, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { latestBindingOfPath } from '@palimpsest/projections/workspace-files.queries';
import type { ManagedProcess } from '@palimpsest/workspace/process/managed-process';
import type { OutputRing } from '@palimpsest/workspace/process/output-ring';
import { utf8Text } from '@palimpsest/workspace/process/utf8-window';
import type { AppContext } from '../../app-context';
import type { HandlerSession } from '../../dispatch/operation-handler';
import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { approvalDeclined, approvalTimeout, forbidden, noProcesses, rootOnly, spawnFailed, tooManyProcesses } from './command-answers';
import type { LiveRun } from './command-runs';
import { RunRecord } from './run-record';
import { awaitApproval } from './await-approval';

export interface RunRequest {
  command: string;
  cwd?: string;
  timeoutMs?: number;
}

/** The caller's policy: the read-only profile runs nothing, whatever policy it names. */
export function callerPolicy(session: HandlerSession): OwnerPolicy {
  if (session.profile === 'read-only') return READ_ONLY;
  return session.policy ?? ALLOW_ALL;
}

function recorded(d: CommandDecision): RecordedDecision {
  const exec = d.verdict === 'refuse' ? null : d.exec;
  return {
    verdict: d.verdict,
    rule: d.rule,
    reason: d.verdict === 'run' ? null : d.reason,
    argv: exec && 'argv' in exec ? [...exec.argv] : null,
    shell: exec && 'shell' in exec ? exec.shell : null,
  };
}

const KILL_REASONS: readonly string[] = [OP.kill_command, 'timeout', 'service_stop'];
const killReason = (reason: string): KillReason => (KILL_REASONS.includes(reason) ? (reason as KillReason) : OP.kill_command);

function digestOf(ring: OutputRing, sha256: string): StreamDigest {
  const from = Math.max(ring.start, ring.written - COMMAND_TAIL_BYTES);
  return { sha256, bytes: ring.written, tail: utf8Text(ring.read(from, COMMAND_TAIL_BYTES).bytes, from > 0) };
}

/**
 * Records the end of a started run: the kill that stopped it, if one did, then its exit, in one append
 * (with the start, when the run ended before its start was written). A run whose spawner died under it
 * has no exit to record: its group was stopped, and that is its last word, as after a crash.
 */
async function recordEnd(record: RunRecord, p: ManagedProcess): Promise<void> {
  const exit = await p.finished;
  if (exit.lost) return record.record({ type: 'RecordKill', reason: 'crash_cleanup', outcome: p.groupStop ?? 'gone' });
  const kill = p.killRequest ? record.hold({ type: 'RecordKill', reason: killReason(p.killRequest.reason), outcome: await p.killRequest.outcome }, 0) : null;
  const exited = record.record({
    type: 'RecordExit',
    exit_code: exit.code,
    signal: exit.signal,
    duration_ms: exit.durationMs,
    stdout: digestOf(p.stdout, p.digests.stdout.digest('hex')),
    stderr: digestOf(p.stderr, p.digests.stderr.digest('hex')),
  });
  await Promise.all([kill, exited]);
}

/**
 * How long a run's start may wait to go with its exit in one append. The request is on the record before
 * the process exists, and every process of the run carries the run's id in its environment, so a restart
 * after a crash in this window still finds the run's processes and stops them.
 */
const START_HELD_MS = 100;

const atRoot = (cwd: string | undefined): boolean => cwd === undefined || cwd.split('/').every((part) => part === '' || part === '.');

/**
 * The start both run_command and start_command share: the policy decides the line (recorded with the
 * rule that decided, before anything runs), then the process starts at the workspace root, leader of its
 * own group, and its start is recorded with the group to kill. Its end is recorded when it comes.
 */
export async function beginRun(ctx: AppContext, session: HandlerSession, tool: CommandTool, input: RunRequest): Promise<{ kind: 'answer'; answer: InvalidArgument | Refusal<'rejected'> } | { kind: 'started'; run: LiveRun }> {
  const processes = ctx.commands.processes;
  const root = ctx.workspace;
  if (!processes || !root) return { kind: 'answer', answer: noProcesses(tool) };
  if (!atRoot(input.cwd)) return { kind: 'answer', answer: rootOnly(input.cwd ?? '') };
  const policy = callerPolicy(session);
  const context = { writtenThroughPalimpsest: async (path: string) => (await latestBindingOfPath(ctx.db, root, path)) !== null };
  const decision = await ctx.commands.gate.decide(input.command, policy, context);
  const runId = ctx.ids.next();
  const correlationId = session.correlationId ?? null;
  const record = new RunRecord(ctx, runId, { command: 'RequestCommand', tool, correlation_id: correlationId });
  const caller = { policy: policy.name, profile: session.profile, correlation_id: correlationId };
  await record.record({ type: 'RequestCommand', tool, command: input.command, timeout_ms: input.timeoutMs ?? null, decision: recorded(decision), caller });
  if (decision.verdict === 'refuse') return { kind: 'answer', answer: forbidden(decision.rule, decision.reason, runId) };
  if (decision.verdict === 'approve') {
    const approval = await awaitApproval(ctx, record, input.command, decision, session);
    if (approval.kind === 'declined') return { kind: 'answer', answer: approvalDeclined(decision.rule, runId) };
    if (approval.kind === 'timeout') return { kind: 'answer', answer: approvalTimeout(decision.rule, runId, approval.waitedMs) };
  }
  const started = await processes.start(runId, decision.exec, tool === OP.start_command);
  if (!started.ok) {
    await record.record({ type: 'RefuseCommand', code: 'too_many_processes', rule: null, reason: `${started.live} processes are live` });
    return { kind: 'answer', answer: tooManyProcesses(started.live, runId) };
  }
  const p = started.process;
  if (p.pid <= 0) {
    await p.finished;
    const detail = p.stderr.held().toString('utf8');
    await record.record({ type: 'RefuseCommand', code: 'spawn_failed', rule: null, reason: detail.trim() });
    return { kind: 'answer', answer: spawnFailed(detail, runId) };
  }
  const start = { type: 'RecordStart', pid: p.pid, pgid: p.pid, leader: p.identity } as const;
  // A run a person approved is recorded as started at once (a restart settles only a run the policy let run without a start).
  const startRecorded = decision.verdict === 'approve' ? record.record(start) : record.hold(start, START_HELD_MS);
  const settled = Promise.all([startRecorded, recordEnd(record, p)]).then(() => undefined);
  if (decision.verdict === 'approve') await startRecorded;
  settled.catch((error: unknown) => process.stderr.write(`palimpsest: the end of command run ${runId} was not recorded: ${String(error)}\n`));
  const run: LiveRun = { record, process: p, settled };
  ctx.commands.runs.set(runId, run);
  for (const id of ctx.commands.runs.keys()) if (!processes.get(id)) ctx.commands.runs.delete(id);
  return { kind: 'started', run };
}
