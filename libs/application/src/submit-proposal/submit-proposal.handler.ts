import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { CommandRefused } from '@palimpsest/core/target/command-refused';
import { isUuid } from '@palimpsest/core/target/request-identity';
import type { KeyedAttempt, ParentAttempt, SubmitProposal } from '@palimpsest/core/target/target.commands';
import { evaluate } from '@palimpsest/core/target/target.decider';
import type { ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import { SUBMISSION_TOOL } from '../shared/submission-tools';
import { commitEvents } from '../shared/commit-events';
import { targetIdOf, lockTargetRow, notFound, type NotFound } from '../shared/target-lookup';
import { viewOfAccepted, viewOfRejected, viewOfRow } from './attempt-view';
import { enrichRejection, type RejectionEnrichment } from './rejection-enrichment';
import { submissionResponse } from './submission-response';

/** Wire arguments common to the three submission tools (proposal fields vary by format). */
export interface SubmitProposalInput {
  target_file_id: unknown;
  protocol_version: ProtocolVersion;
  proposal: Record<string, unknown>;
  expected_target_version?: unknown;
  expected_current_hash?: unknown;
  client_request_id?: unknown;
  parent_attempt_id?: unknown;
  attempt?: unknown;
  source?: unknown;
  include_correlation_id?: boolean;
}

export type SubmissionResult = Record<string, unknown> | InvalidArgument | NotFound;

/** Runs after the lock is held, as its own statement, so it sees every attempt committed before the lock. */
async function findKeyed(tx: Sql, targetId: string, key: unknown): Promise<KeyedAttempt | null> {
  if (typeof key !== 'string') return null;
  const { rows } = await tx.query(
    `SELECT a.attempt_id::text AS attempt_id, a.request_fingerprint, a.protocol_version, a.content_hash,
            a.expected_target_version, a.expected_current_hash, a.parent_attempt_id::text AS parent_attempt_id,
            e.data->>'content' AS content
       FROM attempts a JOIN events e ON e.global_position = a.log_sequence
      WHERE a.target_id = $1 AND a.client_request_id = $2`,
    [targetId, key],
  );
  return (rows[0] as KeyedAttempt) ?? null;
}

async function findParent(tx: Sql, parentId: unknown): Promise<ParentAttempt | null> {
  if (!isUuid(parentId)) return null;
  const { rows } = await tx.query(
    `SELECT attempt_id::text AS attempt_id, target_id::text AS target_id, status FROM attempts WHERE attempt_id = $1`,
    [parentId],
  );
  return (rows[0] as ParentAttempt) ?? null;
}

async function recoveredView(tx: Sql, attemptId: string) {
  const { rows } = await tx.query(
    `SELECT attempt_id::text AS attempt_id, target_id::text AS target_id, status, client_request_id, before_version,
            before_hash, after_version, after_hash, failure_reason, failure_detail, failed_change_id,
            validation_stage, diagnostic, change_facts
       FROM attempts WHERE attempt_id = $1`,
    [attemptId],
  );
  return viewOfRow(rows[0]);
}

/** lock → idempotency lookup → decide → append → project, in one transaction. */
export async function submitProposal(ctx: AppContext, input: SubmitProposalInput): Promise<SubmissionResult> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const attemptId = ctx.ids.next();
  const now = ctx.clock.now();
  const correlationId = input.include_correlation_id === true ? ctx.ids.next() : null;
  const submittedKey = typeof input.client_request_id === 'string' ? input.client_request_id : null;

  let enrichment: RejectionEnrichment | null = null;
  const body = await ctx.db.transaction(async (tx): Promise<SubmissionResult> => {
    const target = await lockTargetRow(tx, targetId, ctx.contents);
    if (!target) return notFound(targetId);
    const keyed = await findKeyed(tx, targetId, input.client_request_id);
    const parent = await findParent(tx, input.parent_attempt_id);
    const command: SubmitProposal = {
      type: 'SubmitProposal',
      now,
      attempt_id: attemptId,
      target_id: targetId,
      protocol_version: input.protocol_version,
      proposal: input.proposal,
      expected_target_version: input.expected_target_version,
      expected_current_hash: input.expected_current_hash,
      client_request_id: input.client_request_id,
      parent_attempt_id: input.parent_attempt_id,
      regeneration_attempt: input.attempt,
      source: input.source,
      lookups: { keyed, parent },
    };
    let outcome;
    try {
      outcome = evaluate(command, target);
    } catch (err) {
      if (err instanceof CommandRefused) return err.body;
      throw err;
    }
    const current = { version: target.version, current_hash: target.current_hash };
    enrichment = {
      tool: SUBMISSION_TOOL[input.protocol_version],
      current: { content: target.content, version: target.version, hash: target.current_hash },
      nearMissSource: outcome.nearMissSource ?? null,
    };
    if (outcome.recoveredAttemptId) {
      const view = await recoveredView(tx, outcome.recoveredAttemptId);
      return submissionResponse(view, { deduplicated: true, submittedKey, current, correlationId });
    }
    await commitEvents(tx, ctx.contents, {
      targetId,
      streamVersion: target.stream_version,
      previousChunks: target.chunks,
      events: outcome.events,
      stateAfter: outcome.state,
      recordedAt: now,
      metadata: { command: 'SubmitProposal' },
      textChange: outcome.textChange,
    });
    const event = outcome.events[0];
    const view = event.type === 'ProposalAccepted' ? viewOfAccepted(event.data) : viewOfRejected(event.data as never);
    const after = outcome.state.exists ? outcome.state : target;
    return submissionResponse(view, {
      deduplicated: false,
      submittedKey,
      current: { version: after.version, current_hash: after.current_hash },
      correlationId,
    });
  });
  // Near misses and contexts are computed after commit: the row lock is already released.
  return enrichment ? enrichRejection(body, enrichment) : body;
}
