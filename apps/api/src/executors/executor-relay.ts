import type { AppContext } from '@palimpsest/application/app-context';
import type { ProjectRelay, RelayCall, RelayProject } from '@palimpsest/application/relay/project-relay.port';
import { executorOffline, type OfflineCode } from '@palimpsest/application/relay/project-refusals';
import { loadRelayCall, recordAnswered, recordSent, relayRequestId, requestDigest, type RelayCallSent } from '@palimpsest/application/relay/relay-record';
import { findOperation } from '@palimpsest/protocol/catalog/catalog';
import { EXECUTOR_TOOL_NAMES, type ExecutorProject, type ExecutorToolName, type ToolCallMessage, type ToolResultMessage } from '@palimpsest/protocol/executor/executor-messages';
import type { Outcome } from '@palimpsest/protocol/outcome';
import type { Logger } from 'pino';
import { DeadlinePassed, LinkLost, type RelayEndpoint } from './relay-endpoint';
import { relayDeadlineMs, type RelayConfig } from './relay-config';

interface Held {
  id: string;
  slug: string;
  deviceId: string;
  /** The connection holding it now, or null while its executor is away. */
  endpoint: RelayEndpoint | null;
}

/**
 * The gateway's relay of file and command tools to executors. Every call is recorded before it is sent
 * and with its answer (relay-record.ts), keyed by its idempotency key; a resent key answers the recorded
 * answer, and a call whose answer never came is sent again under the same request id, which the executor
 * answers from its own record instead of running it twice. When the link drops mid-call the caller waits,
 * up to the call's deadline, for the executor to come back; past it the answer is LOCAL_EXECUTOR_OFFLINE
 * with the outcome unknown.
 */
export class ExecutorRelay implements ProjectRelay {
  private readonly held = new Map<string, Held>();
  private readonly inFlight = new Map<string, Promise<Outcome>>();
  private readonly returned = new Set<() => void>();

  constructor(
    private readonly ctx: AppContext,
    private readonly config: RelayConfig,
    private readonly logger: Logger,
  ) {}

  projects(): RelayProject[] {
    return [...this.held.values()].map((h) => ({ id: h.id, slug: h.slug, online: h.endpoint !== null }));
  }

  /** A project of `projects` (by id or name) that another device's executor holds online now, or null. */
  heldElsewhere(deviceId: string, projects: ExecutorProject[]): string | null {
    for (const h of this.held.values()) {
      if (h.endpoint === null || h.endpoint.gone || h.deviceId === deviceId) continue;
      const clash = projects.find((p) => p.id === h.id || p.slug === h.slug);
      if (clash) return clash.slug;
    }
    return null;
  }

  /** An executor said hello: its projects are online through this endpoint. */
  online(endpoint: RelayEndpoint, deviceId: string, projects: ExecutorProject[]): void {
    for (const p of projects) this.held.set(p.id, { id: p.id, slug: p.slug, deviceId, endpoint });
    for (const wake of [...this.returned]) wake();
  }

  /** An executor's connection ended: its projects wait for it to come back. */
  offline(endpoint: RelayEndpoint): void {
    for (const h of this.held.values()) if (h.endpoint === endpoint) h.endpoint = null;
  }

  call(call: RelayCall): Promise<Outcome> {
    const key = call.key ?? `gw_${this.ctx.ids.next()}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const answer = this.callOnce(key, call).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, answer);
    return answer;
  }

  private async callOnce(key: string, call: RelayCall): Promise<Outcome> {
    const digest = requestDigest(call.tool, call.projectId, call.arguments);
    let state = await loadRelayCall(this.ctx, key);
    if (!state.sent) {
      const sent = this.sentEvent(key, call, digest);
      if (!(await recordSent(this.ctx, sent))) state = await loadRelayCall(this.ctx, key);
      else state = { sent, answered: null, version: 1 };
    }
    const sent = state.sent!;
    if (sent.request_sha256 !== digest) return keyConflict(call.tool, key);
    if (state.answered) return state.answered.answer;
    return this.deliver(sent, call);
  }

  private sentEvent(key: string, call: RelayCall, digest: string): RelayCallSent {
    const now = Date.now();
    return {
      key,
      request_id: relayRequestId(key),
      project_id: call.projectId,
      device_id: this.held.get(call.projectId)?.deviceId ?? '',
      tool: call.tool,
      request_sha256: digest,
      arguments: call.arguments,
      correlation_id: call.correlationId,
      client: call.client,
      issued_at: new Date(now).toISOString(),
      expires_at: new Date(now + relayDeadlineMs(this.config, call.tool, call.arguments)).toISOString(),
    };
  }

  /** Sends (again, after a lost link) until an answer comes or the deadline passes. */
  private async deliver(sent: RelayCallSent, call: RelayCall): Promise<Outcome> {
    const deadline = Date.parse(sent.expires_at);
    const message: ToolCallMessage = {
      type: 'tool.call',
      requestId: sent.request_id,
      projectId: sent.project_id,
      tool: call.tool,
      arguments: sent.arguments,
      ...(call.client ? { client: { name: call.client } } : {}),
      ...(call.policy ? { policy: { mode: call.policy.mode, allow: call.policy.allow, deny: call.policy.deny, shell: call.policy.shell, approve: call.policy.approve, tools: executorTools(call.policy.tools) } } : {}),
      issuedAt: Date.parse(sent.issued_at),
      expiresAt: deadline,
    };
    for (;;) {
      const endpoint = await this.endpointFor(sent.project_id, deadline);
      if (!endpoint) return this.unknown(sent, 'its executor did not come back before the call\'s deadline');
      try {
        const result = await endpoint.send(message, deadline, call.signal);
        return await this.answered(sent, result);
      } catch (error) {
        if (error instanceof LinkLost) {
          this.logger.warn({ request_id: sent.request_id, project: sent.project_id, reason: error.message }, 'executor relay: link lost mid-call; waiting for the executor');
          continue;
        }
        if (error instanceof DeadlinePassed) return this.unknown(sent, 'no answer came before the call\'s deadline (a cancel was sent)', 'TOOL_TIMEOUT');
        throw error;
      }
    }
  }

  /** The project's connection, waiting for its executor to come back up to the deadline (null past it). */
  private async endpointFor(projectId: string, deadline: number): Promise<RelayEndpoint | null> {
    for (;;) {
      const endpoint = this.held.get(projectId)?.endpoint ?? null;
      if (endpoint && !endpoint.gone) return endpoint;
      const left = deadline - Date.now();
      if (left <= 0) return null;
      await new Promise<void>((resolve) => {
        const wake = () => (clearTimeout(timer), this.returned.delete(wake), resolve());
        const timer = setTimeout(wake, left);
        this.returned.add(wake);
      });
    }
  }

  private async answered(sent: RelayCallSent, message: ToolResultMessage): Promise<Outcome> {
    const answer = answerOf(sent, message);
    const recorded = await recordAnswered(this.ctx, sent, {
      request_id: sent.request_id,
      result: message.result.ok ? 'ok' : message.result.error.code,
      status: String(answer.status),
      duration_ms: message.durationMs,
      answer,
      answered_at: new Date().toISOString(),
    });
    if (recorded) return answer;
    return (await loadRelayCall(this.ctx, sent.key)).answered?.answer ?? answer;
  }

  private unknown(sent: RelayCallSent, detail: string, code: OfflineCode = 'LOCAL_EXECUTOR_OFFLINE'): Outcome {
    const project = this.held.get(sent.project_id) ?? { id: sent.project_id, slug: sent.project_id, online: false };
    const offline = { id: project.id, slug: project.slug, online: false };
    return executorOffline(sent.tool, offline, `${detail}; whether it ran is unknown`, code, { outcome: 'unknown', client_request_id: sent.key });
  }
}

/**
 * A tool.result as the caller's answer: ok carries the executor's own answer (the connection checked it
 * is an answer of that tool, isAnswerOf); an error is the protocol's code and message.
 */
export function answerOf(_sent: RelayCallSent, message: ToolResultMessage): Outcome {
  const { result } = message;
  if (!result.ok) {
    const retryable = result.error.code === 'TOOL_TIMEOUT' ? 'same_request' : 'none';
    return { status: 'invalid_argument', code: result.error.code, answer: result.error.code, retryable, failure_detail: result.error.message } as Outcome;
  }
  return result.value as Outcome;
}

/** Whether an ok tool.result's value is an answer of `tool`: an object whose status the tool's result schema names. */
export function isAnswerOf(tool: string, value: unknown): boolean {
  if (typeof value !== 'object' || value === null || Array.isArray(value)) return false;
  const status = (value as { status?: unknown }).status;
  const statuses = ((findOperation(tool)?.result.properties as { status?: { enum?: string[] } } | undefined)?.status?.enum) ?? [];
  return typeof status === 'string' && statuses.includes(status);
}

/** The hosted policy's tools that an executor performs (the rest are the gateway's own). */
const executorTools = (tools: string[] | null): ExecutorToolName[] | null =>
  tools === null ? null : tools.filter((t): t is ExecutorToolName => (EXECUTOR_TOOL_NAMES as readonly string[]).includes(t));

function keyConflict(tool: string, key: string): Outcome {
  return {
    status: 'invalid_argument',
    code: 'idempotency_key_conflict',
    answer: 'INVALID_ARGUMENTS',
    retryable: 'none',
    failure_detail: `${tool}: client_request_id ${JSON.stringify(key)} was first sent with another tool, project or arguments; send a new key for a new call.`,
  } as Outcome;
}
