import type { AppContext } from '@palimpsest/application/app-context';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { narrowPolicy } from '@palimpsest/application/relay/narrow-policy';
import { loadRelayCall, recordAnswered, recordSent, recordSentAndAnswered, requestDigest, type RelayCallAnswered } from '@palimpsest/application/relay/relay-record';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { readConfig } from '@palimpsest/composition/palimpsest-config';
import type { ExecutorToolErrorCode, ToolCallMessage, ToolResult, ToolResultMessage } from '@palimpsest/protocol/executor/executor-messages';
import type { Outcome } from '@palimpsest/protocol/outcome';
import { openDb } from '@palimpsest/store/open-db';
import { prepareStore } from '../runtime';
import type { LocalProject } from './connect-projects';
import { COMMAND_TOOLS, RECONCILED_TOOLS, recordedRun, recordedWrite, SELF_RECORDED_TOOLS, unknownInput } from './connect-reconcile';

/** A project opened here: its own embedded store and workspace root, and the machine owner's policy for it. */
interface OpenProject {
  project: LocalProject;
  ctx: AppContext;
}

const failed = (code: ExecutorToolErrorCode, message: string): ToolResult => ({ ok: false, error: { code, message } });

/**
 * The executor's side of the relay: each project runs Palimpsest's own file and command tools against
 * its directory, with an embedded store of its own (`<dir>/.palimpsest/data`, which no tool reaches),
 * under the hosted policy narrowed by the local one. Every call is on that store's record by request id
 * with its answer (input to a process also before it runs; a write or a run commits with the request id
 * itself): a request id seen before is answered from the record, never run again.
 */
export class LocalExecutor {
  private readonly open = new Map<string, OpenProject>();
  /** Calls performed now, each until its answer is on the record (`recorded`): a resend meanwhile gets the same answer. */
  private readonly running = new Map<string, { answer: Promise<ToolResultMessage>; abort: AbortController; recorded: Promise<unknown> }>();

  private constructor(private readonly log: (line: string) => void) {}

  /** Opens every project's store (migrated, a crash's leftovers settled) before the link announces them. */
  static async start(projects: LocalProject[], env: NodeJS.ProcessEnv, log: (line: string) => void): Promise<LocalExecutor> {
    const executor = new LocalExecutor(log);
    for (const project of projects) {
      const started = Date.now();
      executor.open.set(project.id, await openProject(project, env));
      log(`project ${project.slug} ready (its store opened in ${Date.now() - started} ms)`);
    }
    return executor;
  }

  /** The answer to a tool.call: from the record when its request id was seen, else by running it once. */
  perform(message: ToolCallMessage): Promise<ToolResultMessage> {
    const id = message.requestId;
    const seen = this.running.get(id);
    if (seen) return seen.answer;
    const abort = new AbortController();
    const performed = this.performOnce(message, abort.signal);
    const recorded = performed
      .then(({ recorded: record }) => record?.catch((error: unknown) => this.log(`the answer to ${id} was sent but not recorded (a resend settles it from the project's record): ${String(error)}`)), () => undefined)
      .finally(() => this.running.delete(id));
    const answer = performed.then(({ reply }) => reply);
    this.running.set(id, { answer, abort, recorded });
    return answer;
  }

  cancel(requestId: string): void {
    this.running.get(requestId)?.abort.abort();
  }

  async close(): Promise<void> {
    await Promise.allSettled([...this.running.values()].map((r) => r.recorded));
    for (const { ctx } of this.open.values()) {
      await ctx.commands.stop().catch(() => undefined);
      await ctx.wakes.close();
      await ctx.db.close();
    }
  }

  /** The reply to a call, and the write of its record when it has one to write (after the reply leaves). */
  private async performOnce(message: ToolCallMessage, signal: AbortSignal): Promise<{ reply: ToolResultMessage; recorded?: Promise<unknown> }> {
    const started = Date.now();
    const reply = (result: ToolResult) => ({ reply: { type: 'tool.result' as const, requestId: message.requestId, durationMs: Date.now() - started, result } });
    const open = this.open.get(message.projectId);
    if (!open) return reply(failed('UNKNOWN_PROJECT', `this executor holds no project ${message.projectId}`));
    const args = message.arguments;
    if (typeof args !== 'object' || args === null || Array.isArray(args)) return reply(failed('INVALID_ARGUMENTS', 'arguments must be an object'));
    const { ctx, project } = open;
    const recorded = await loadRelayCall(ctx, message.requestId);
    if (recorded.answered) return reply(fromRecord(recorded.answered));
    const sent = {
      key: message.requestId,
      request_id: message.requestId,
      project_id: message.projectId,
      device_id: '',
      tool: message.tool,
      request_sha256: requestDigest(message.tool, message.projectId, args as Record<string, unknown>),
      arguments: args as Record<string, unknown>,
      correlation_id: null,
      client: message.client?.name ?? null,
      issued_at: new Date(message.issuedAt).toISOString(),
      expires_at: new Date(message.expiresAt).toISOString(),
    };
    // Tools whose own record answers for them (a write, a command) or that run again safely are recorded once
    // answered, sent and answered together; the others are recorded as sent before they run.
    const sentFirst = !recorded.sent && !SELF_RECORDED_TOOLS.has(message.tool);
    const settle = (result: ToolResult) => {
      const answer = result.ok ? (result.value as Outcome) : ({ status: 'invalid_argument', code: result.error.code, failure_detail: result.error.message } as Outcome);
      const answered = { request_id: message.requestId, result: result.ok ? 'ok' : result.error.code, status: String(answer.status), duration_ms: Date.now() - started, answer, answered_at: new Date().toISOString() };
      return { ...reply(result), recorded: recorded.sent || sentFirst ? recordAnswered(ctx, sent, answered) : recordSentAndAnswered(ctx, sent, answered) };
    };
    if (recorded.sent || SELF_RECORDED_TOOLS.has(message.tool)) {
      // Started before and never answered (this process was killed in the middle, or the run threw), or not
      // known to have started: the project's record says whether it applied.
      const settled = await settledFromRecord(ctx, message, args as Record<string, unknown>, project.slug);
      if (settled) return settle({ ok: true, value: settled });
      // It did not apply (or changes nothing): it runs now as if it came for the first time (within its deadline).
    }
    // Refused past its deadline, and on the record as refused: a later send of it is refused the same, never run.
    if (sentFirst) await recordSent(ctx, sent);
    if (Date.now() > message.expiresAt) return settle(failed('TOOL_TIMEOUT', 'the call\'s deadline passed before it reached this executor; it did not run'));
    const policy = narrowPolicy(message.policy ?? null, project.policy, project.slug);
    const answer = await dispatchRequest(ctx, message.tool, args, { policy, signal, correlationId: message.requestId, ...(message.client?.name ? { client: message.client.name } : {}) });
    return settle({ ok: true, value: answer });
  }
}

/**
 * A call started before and never answered (this process was killed in the middle, or the run threw), or a
 * call whose tool leaves its own record: the answer the record gives, null when it did not apply (or runs
 * again safely) and runs now. The tool names are the protocol's (the link validates them), each one here.
 */
async function settledFromRecord(ctx: AppContext, message: ToolCallMessage, args: Record<string, unknown>, slug: string): Promise<Outcome | null> {
  if (RECONCILED_TOOLS.has(message.tool)) return recordedWrite(ctx, message.requestId, message.tool);
  if (COMMAND_TOOLS.has(message.tool)) return recordedRun(ctx, message.requestId, message.tool, args, slug);
  return message.tool === 'send_command_input' ? unknownInput(args, slug) : null;
}

/** A recorded answer as it was sent: the tool's answer, or the refusal's code and message. */
function fromRecord(answered: RelayCallAnswered): ToolResult {
  if (answered.result === 'ok') return { ok: true, value: answered.answer };
  return failed(answered.result as ExecutorToolErrorCode, String((answered.answer as { failure_detail?: unknown }).failure_detail ?? answered.result));
}

/** The project's own store and root, whatever this process's DATABASE_URL or PALIMPSEST_DATA_DIR say. */
async function openProject(project: LocalProject, env: NodeJS.ProcessEnv): Promise<OpenProject> {
  const { DATABASE_URL: _url, PALIMPSEST_DATA_DIR: _dir, ...rest } = env;
  const config = readConfig({ ...rest, PALIMPSEST_WORKSPACE_ROOT: project.root }, project.root);
  const db = await openDb({ onProgress: () => undefined }, config.store);
  const ctx = appContext(db, {}, config);
  await prepareStore(ctx);
  return { project, ctx };
}
