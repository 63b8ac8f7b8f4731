import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { exportBundle } from '@palimpsest/application/audit/audit-bundle.use-case';
import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import { verifyBundle, type AuditReport } from '@palimpsest/core/audit/verify-bundle';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import { readStream } from '@palimpsest/store/read-stream';
import { streamExists, versionAtPosition } from '@palimpsest/store/stream-lookups';
import { currentStreamVersion } from '@palimpsest/store/stream-version';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { ApiRuntime } from '../api-runtime';
import type { Principal } from '../auth/token-verifier';
import { gatewayError, invalidArgumentError } from '../errors/api-error';
import { replayAll, type ReplayAllPage } from '../operations/replay-all';

/** The most recent events one timeline page shows; older ones stay in the attempt log and the bundle. */
export const TIMELINE_EVENTS = 500;
/** Targets the verification panel replays (the operator's POST /v1/replay pages through any number). */
export const REPLAYED_TARGETS = 100;
/** Sessions whose command runs a timeline reads (the most recent callers of the target). */
const SESSIONS_READ = 20;

export type Answer = Record<string, unknown> & { status: string };
export interface Verification {
  report: AuditReport;
  checkpoint: string | null;
}

/**
 * What the auditor's view reads, each through the path the rest of the gateway takes: catalog reads go
 * through dispatchRequest (read-only profile, the token's policy), the timeline and live rows read the
 * target's stream, and the verification is `palimpsest verify`'s on the live store (the whole log exported
 * and checked as a bundle).
 */
export class AuditViewReads {
  constructor(
    private readonly runtime: ApiRuntime,
    private readonly principal: Principal | undefined,
  ) {}

  async call(operation: OperationName, args: Record<string, unknown>): Promise<Answer> {
    const release = await this.runtime.limiter.acquire();
    try {
      const correlationId = this.runtime.ctx.ids.next();
      return (await dispatchRequest(this.runtime.ctx, operation, args, { policy: this.principal?.policy, readOnly: true, correlationId })) as Answer;
    } finally {
      release();
    }
  }

  /** The target's events after `afterPosition` (0: the last TIMELINE_EVENTS), in stream order. */
  async timeline(targetId: string, afterPosition = 0): Promise<StoredEvent[]> {
    const streamId = await this.existingStream(targetId);
    const release = await this.runtime.limiter.acquire();
    try {
      const fromVersion = afterPosition > 0
        ? (await versionAtPosition(this.runtime.db, streamId, afterPosition)) + 1
        : Math.max(1, (await currentStreamVersion(this.runtime.db, streamId)) - TIMELINE_EVENTS + 1);
      return await readStream(this.runtime.db, streamId, { fromVersion, limit: TIMELINE_EVENTS });
    } finally {
      release();
    }
  }

  /** Command runs of the sessions that edited the target (palimpsest_session_activity), in log order. */
  async commandRuns(events: readonly StoredEvent[]): Promise<Answer[]> {
    const sessions = [...new Set(events.map((e) => e.metadata.correlation_id).filter((id): id is string => typeof id === 'string'))].slice(-SESSIONS_READ);
    const runs: Answer[] = [];
    for (const correlationId of sessions) {
      const answer = await this.call('palimpsest_session_activity', { correlation_id: correlationId, limit: 200 });
      const entries = (answer.entries as Answer[] | undefined) ?? [];
      runs.push(...entries.filter((e) => e.kind === 'command').map((e) => ({ ...e, correlation_id: correlationId })));
    }
    return runs.sort((a, b) => Number(a.position) - Number(b.position));
  }

  /** The whole log as `palimpsest export` writes it; null when the audit log is off. */
  async bundle(verifierKey: string | null): Promise<AuditBundle | null> {
    if (verifierKey === null) return null;
    const release = await this.runtime.limiter.acquire();
    try {
      return await exportBundle(this.runtime.ctx, verifierKey);
    } finally {
      release();
    }
  }

  /** `palimpsest verify` on the live store, with the latest signed checkpoint's note (null: the audit log is off). */
  async verification(verifierKey: string | null): Promise<Verification | null> {
    const bundle = await this.bundle(verifierKey);
    if (!bundle) return null;
    return { report: verifyBundle(bundle), checkpoint: bundle.checkpoints.at(-1)?.note ?? null };
  }

  /** The first REPLAYED_TARGETS targets replayed, as `POST /v1/replay` replays a page. */
  async replay(): Promise<ReplayAllPage> {
    const release = await this.runtime.limiter.acquire();
    try {
      return await replayAll(this.runtime.ctx, { limit: REPLAYED_TARGETS, after: 0 });
    } finally {
      release();
    }
  }

  private async existingStream(targetId: string): Promise<string> {
    if (!isUuid(targetId)) throw invalidArgumentError('audit_view', 'invalid_target_file_id', 'target_file_id must be a UUID (8-4-4-4-12 hexadecimal).', { argument: 'target_file_id' });
    const streamId = targetStreamId(targetId.toLowerCase());
    if (!(await streamExists(this.runtime.db, streamId))) {
      throw gatewayError(404, 'not_found', 'target_not_found', `No target with id ${targetId}.`, { fields: { code: 'target_not_found', target_file_id: targetId } });
    }
    return streamId;
  }
}
