import type { AppContext } from '@palimpsest/application/app-context';
import type { ProjectRelay, RelayCall, RelayProject } from '@palimpsest/application/relay/project-relay.port';
import { executorOffline, type OfflineCode } from '@palimpsest/application/relay/project-refusals';
import { loadRelayCall, recordAnswered, recordSent, relayRequestId, requestDigest, type RelayCallSent } from '@palimpsest/application/relay/relay-record';
import { findOperation } from '@palimpsest/protocol/catalog/catalog';
import { EXECUTOR_TOOL_NAMES, type ExecutorProject, type ExecutorToolName, type ToolCallMessage, type ToolResultMessage } from '@palimpsest/protocol/executor/executor-messages';
import type { Outcome } from '@palimpsest/protocol/outcome';
import type { Logger } from 'pino';
import { DeadlinePassed, LinkLost, type RelayEndpoint } from './relay-endpoint';
import type { HeldProject } from '@palimpsest/store/relay-routes';
import type { RelayPeers } from './relay-peers';
import { relayDeadlineMs, type RelayConfig } from './relay-config';

/** Who announced a project: the device its hello names and the token its connection was opened with. */
export interface Holder {
  deviceId: string;
  /** null with --no-auth. */
  tokenId: string | null;
  /** SHA-256 of the token's secret, as revocations announce it (null with --no-auth). */
  tokenHash: string | null;
}

interface Held extends Holder {
  id: string;
  slug: string;
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
  /** The other gateways on the same database (null on an embedded store, or until attached). */
  private peers: RelayPeers | null = null;

  constructor(
    private readonly ctx: AppContext,
    private readonly config: RelayConfig,
    private readonly logger: Logger,
  ) {}

  /** Calls sent (or waiting for their executor) and not answered yet: /metrics shows it. */
  get callsInFlight(): number {
    return this.inFlight.size;
  }

  attachPeers(peers: RelayPeers): void {
    this.peers = peers;
  }

  /** The gateway stops: its projects are withdrawn from the other gateways' view. */
  async close(): Promise<void> {
    await this.peers?.close();
  }

  /** The projects held here: online (their executor connected here now) or away (waited for). */
  heldProjects(): HeldProject[] {
    return [...this.held.values()].map(({ id, slug, deviceId, tokenId }) => ({ id, slug, deviceId, tokenId, online: this.isOnline(id) }));
  }

  /**
   * This gateway's projects, and those another gateway on the same database holds (callable here: handed
   * over); a project online elsewhere is listed from there, one away here and there from there.
   */
  projects(): RelayProject[] {
    const here = [...this.held.values()].map((h) => ({ id: h.id, slug: h.slug, online: h.endpoint !== null }));
    const elsewhere = (this.peers?.projects() ?? []).filter((p) => !this.isOnline(p.project_id));
    const there = new Set(elsewhere.map((p) => p.project_id));
    return [...here.filter((p) => !there.has(p.id)), ...elsewhere.map((p) => ({ id: p.project_id, slug: p.slug, online: p.online }))];
  }

  /**
   * Why `holder` may not announce `projects`, or null. A project id stays bound to the device and token
   * that first announced it, online or away: while its executor is away its callers wait for it, and
   * another executor saying hello with that id (device ids and project ids are public in /health) must
   * not receive their calls nor answer them. A name (slug) is refused only while another device holds it online.
   */
  heldElsewhere(holder: Holder, projects: ExecutorProject[]): string | null {
    for (const p of projects) {
      const h = this.held.get(p.id);
      if (h && (h.deviceId !== holder.deviceId || h.tokenId !== holder.tokenId)) return `project ${JSON.stringify(p.slug)} (${p.id}) belongs to another executor (another device or token)`;
      const there = this.peers?.projects().find((r) => r.project_id === p.id);
      if (there && (there.device_id !== holder.deviceId || there.token_id !== holder.tokenId)) return `project ${JSON.stringify(p.slug)} (${p.id}) belongs to another executor (on another gateway)`;
    }
    for (const h of this.held.values()) {
      if (h.endpoint === null || h.endpoint.gone || h.deviceId === holder.deviceId) continue;
      const clash = projects.find((p) => p.slug === h.slug);
      if (clash) return `project ${JSON.stringify(clash.slug)} is held by another executor connected now`;
    }
    return null;
  }

  /** An executor said hello: its projects are online through this endpoint. */
  online(endpoint: RelayEndpoint, holder: Holder, projects: ExecutorProject[]): void {
    for (const p of projects) this.held.set(p.id, { id: p.id, slug: p.slug, deviceId: holder.deviceId, tokenId: holder.tokenId, tokenHash: holder.tokenHash, endpoint });
    for (const wake of [...this.returned]) wake();
    this.peers?.changed();
  }

  /** A revoked token's projects are released: another token may announce them (their waiting callers learn the outcome is unknown at their deadlines). */
  release(tokenHash: string): void {
    for (const [id, h] of this.held) if (h.tokenHash === tokenHash && h.endpoint === null) this.held.delete(id);
    this.peers?.changed();
  }

  /** An executor's connection ended: its projects wait for it to come back. */
  offline(endpoint: RelayEndpoint): void {
    for (const h of this.held.values()) if (h.endpoint === endpoint) h.endpoint = null;
    this.peers?.changed();
  }

  call(call: RelayCall): Promise<Outcome> {
    const key = call.key ?? `gw_${this.ctx.ids.next()}`;
    const running = this.inFlight.get(key);
    if (running) return running;
    const there = this.isOnline(call.projectId) ? undefined : this.peers?.projects().find((p) => p.project_id === call.projectId);
    const answer = (there ? this.handOver(key, call, there.gateway, there.slug) : this.callOnce(key, call)).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, answer);
    return answer;
  }

  /**
   * A call for a project whose executor is connected to another gateway: handed to it and answered there,
   * on the shared record under the same key. Past the call's deadline without an answer, its outcome is unknown.
   */
  private async handOver(key: string, call: RelayCall, gateway: string, slug: string): Promise<Outcome> {
    const { signal: _signal, ...handed } = call;
    const deadline = Date.now() + relayDeadlineMs(this.config, call.tool, call.arguments) + HAND_OVER_SLACK_MS;
    const answer = await this.peers!.forward({ ...handed, key }, gateway, deadline);
    if (answer) return answer;
    const project = { id: call.projectId, slug, online: false };
    return executorOffline(call.tool, project, 'its executor is connected to another gateway, which did not answer before the call\'s deadline; whether it ran is unknown', 'LOCAL_EXECUTOR_OFFLINE', { outcome: 'unknown', client_request_id: key });
  }

  private async callOnce(key: string, call: RelayCall): Promise<Outcome> {
    const digest = requestDigest(call.tool, call.projectId, call.arguments);
    let state = await loadRelayCall(this.ctx, key);
    if (!state.sent) {
      // Nothing of this key left the gateway: with its executor away it is refused, and certainly not applied.
      if (!this.isOnline(call.projectId)) return this.refuseOffline(call);
      const sent = this.sentEvent(key, call, digest);
      if (!(await recordSent(this.ctx, sent))) state = await loadRelayCall(this.ctx, key);
      else return this.deliver(sent, call, Date.parse(sent.expires_at));
    }
    const sent = state.sent!;
    if (sent.request_sha256 !== digest) return keyConflict(call.tool, key);
    if (state.answered) return state.answered.answer;
    // In doubt: sent before and never answered. It is asked again under the same request id and the answer
    // waited for afresh: the executor answers from its record, or runs it only if it never got it and the
    // call's own deadline (expiresAt, unchanged) has not passed, or says it did not.
    return this.deliver(sent, call, Math.max(Date.parse(sent.expires_at), Date.now() + relayDeadlineMs(this.config, call.tool, call.arguments)));
  }

  private isOnline(projectId: string): boolean {
    const endpoint = this.held.get(projectId)?.endpoint ?? null;
    return endpoint !== null && !endpoint.gone;
  }

  private refuseOffline(call: RelayCall): Outcome {
    const h = this.held.get(call.projectId);
    const project = { id: call.projectId, slug: h?.slug ?? call.projectId, online: false };
    return executorOffline(call.tool, project, undefined, 'LOCAL_EXECUTOR_OFFLINE', { outcome: 'not_applied', ...(call.key ? { client_request_id: call.key } : {}) });
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

  /** Sends (again, after a lost link) until an answer comes or `deadline` (how long the caller waits) passes. */
  private async deliver(sent: RelayCallSent, call: RelayCall, deadline: number): Promise<Outcome> {
    const message: ToolCallMessage = {
      type: 'tool.call',
      requestId: sent.request_id,
      projectId: sent.project_id,
      tool: call.tool,
      arguments: sent.arguments,
      ...(call.client ? { client: { name: call.client } } : {}),
      ...(call.policy ? { policy: { mode: call.policy.mode, allow: call.policy.allow, deny: call.policy.deny, shell: call.policy.shell, approve: call.policy.approve, tools: executorTools(call.policy.tools) } } : {}),
      issuedAt: Date.parse(sent.issued_at),
      expiresAt: Date.parse(sent.expires_at),
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
    // An executor that cannot say whether the call ran leaves it in doubt: not recorded, so that sending the key again asks again.
    if (!message.result.ok && message.result.error.code === 'INTERNAL_ERROR') return answer;
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

/** How much longer than the call's own deadline a handed-over call is waited for: the other gateway answers past it. */
const HAND_OVER_SLACK_MS = 2_000;

/**
 * A tool.result as the caller's answer: ok carries the executor's own answer (the connection checked it
 * is an answer of that tool, isAnswerOf); an error is the protocol's code and message.
 */
export function answerOf(sent: RelayCallSent, message: ToolResultMessage): Outcome {
  const { result } = message;
  if (!result.ok) {
    const retryable = result.error.code === 'TOOL_TIMEOUT' ? 'same_request' : 'none';
    // Every refusal an executor sends is of a call it did not run (unknown project, bad arguments, past its
    // deadline), except INTERNAL_ERROR: it could not say.
    const outcome = result.error.code === 'INTERNAL_ERROR' ? 'unknown' : 'not_applied';
    return { status: 'invalid_argument', code: result.error.code, answer: result.error.code, retryable, failure_detail: result.error.message, outcome, client_request_id: sent.key } as Outcome;
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
