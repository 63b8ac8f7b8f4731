import type { SubmitEditsAnswer } from '@palimpsest/protocol/catalog/operation-answers.generated';
import type { AnswerNotes } from '@palimpsest/protocol/answer-notes';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { isUuid, isValidRequestKey } from '@palimpsest/core/target/request-identity';
import { resent, type RejectedRequest } from '@palimpsest/core/diagnostics/retry-request';
import type { CatalogOperation } from '@palimpsest/core/errors/error-model';
import { submissionCommand, type SubmissionCommand, type SubmissionFields } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import type { ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import { refusalAnswer, type Decided } from '../shared/target-refusals';
import { SUBMISSION_TOOL } from '../shared/submission-tools';
import { commitOf, commitOptimistically } from '../shared/commit-events';
import type { TargetUnit } from '../shared/handle-command';
import { acceptedChange, acceptedHash, runTargetCommand, type Step, type TargetCommandPlan } from '../shared/target-pipeline/target-pipeline';
import { targetIdOf, notFound, type NotFound } from '../shared/target-lookup';
import { attemptRow, findKeyedAttempt, findParentAttempt } from '@palimpsest/projections/attempt-lookups.queries';
import { lockTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Committed } from '../shared/commit-events';
import { workspaceFileOf, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import { viewOfAccepted, viewOfRejected, viewOfRow } from './attempt-view';
import type { ObservedLookups } from './next-action-probe';
import { publishAccepted } from './publish-accepted';
import { enrichRejection, type RejectionEnrichment } from './rejection-enrichment';
import { submissionResponse } from './submission-response';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { sinceLookup, type KnownSteps } from './rebase-lookup';
import { sessionMetadata } from '../shared/session-metadata';

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
  /** The caller's session (its transport's correlation id): recorded with the attempt, read back by the session audit. */
  session_id?: string | null;
  /** A stale expected_target_version is rebased through the acceptances since it when none touched this change. */
  rebase?: boolean;
  /** Set by an undo: the acceptances since expected_target_version it read with the attempt (see KnownSteps). */
  knownSteps?: KnownSteps | null;
  /**
   * Set by palimpsest_submit_observed_operations: finds the observation under the row lock. Such a
   * submission always takes the locked path (the observation must be read under the lock).
   */
  observed?: {
    operation: CatalogOperation;
    /** The request's fields outside its envelope and proposal (the single form's observation_id): next actions resend them. */
    fields?: Record<string, unknown>;
    lookup: (tx: Sql, target: TargetRow) => Promise<ObservedLookups>;
  };
}

/** What an observed submission found under the row lock: one observation (single form) or a batch's. */
export type { ObservedLookups } from './next-action-probe';

/** A submission's answer: the three submission tools' success (what the observed one adds is set by it), or a refusal. */
export type SubmissionResult = (SubmitEditsAnswer & AnswerNotes) | Refusal<'rejected' | 'partial' | 'invalid_argument' | 'not_found'>;

const findKeyed = (tx: Sql, targetId: string, key: string | null) => (key === null ? Promise.resolve(null) : findKeyedAttempt(tx, targetId, key));
const findParent = (tx: Sql, parentId: unknown) => (isUuid(parentId) ? findParentAttempt(tx, parentId) : Promise.resolve(null));

async function recoveredView(tx: Sql, attemptId: string) {
  const row = await attemptRow(tx, attemptId);
  if (!row) throw new Error(`the recovered attempt ${attemptId} has no attempts row`);
  return viewOfRow(row);
}

interface Submission {
  input: SubmitProposalInput;
  targetId: string;
  attemptId: string;
  now: string;
  correlationId: string | null;
  submittedKey: string | null;
  /**
   * The key as SQL may see it: only one of the seed's syntax (1..128 printable ASCII) can be bound to
   * an attempt. Any other (NUL, surrogates, too long) binds nothing and the decider records its
   * invalid_client_request_id rejection; PostgreSQL could not even compare a NUL.
   */
  boundKey: string | null;
  /** Strict observation mode (AppContext.strictObservation) and this submission is not observed. */
  strict: boolean;
  /** What the observed lookup found under the lock (the next actions' probe decides corrections with it). */
  observedLookups?: ObservedLookups;
  /** The workspace file an accepted change must reach first (publish on_accept), found under the lock. */
  binding?: WorkspaceFileRow;
}

function commandFor(sub: Submission, lookups: SubmissionFields['lookups'], observed?: ObservedLookups): SubmissionCommand {
  const { input } = sub;
  return submissionCommand({
    now: sub.now,
    attempt_id: sub.attemptId,
    target_id: sub.targetId,
    protocol_version: input.protocol_version,
    proposal: input.proposal,
    expected_target_version: input.expected_target_version,
    expected_current_hash: input.expected_current_hash,
    client_request_id: input.client_request_id,
    parent_attempt_id: input.parent_attempt_id,
    regeneration_attempt: input.attempt,
    source: input.source,
    ...(input.rebase === true ? { rebase: true } : {}),
    lookups,
  }, observed, sub.strict);
}

const commitInput = (sub: Submission, target: TargetRow, outcome: Decided) => commitOf(target, outcome, sub.now, submissionMetadata(sub.input));

/** What a submission's events carry beside their data: the session only when the caller has one (most carry none). */
export function submissionMetadata(input: SubmitProposalInput): Record<string, unknown> {
  return sessionMetadata({ command: 'SubmitProposal' }, input.observed?.operation ?? SUBMISSION_TOOL[input.protocol_version], input.session_id);
}

/** The arguments as the caller sent them (dispatch split them into envelope and proposal). */
function requestOf(input: SubmitProposalInput): RejectedRequest {
  const { protocol_version, proposal, attempt, observed, session_id: _session, ...envelope } = input;
  const args: Record<string, unknown> = {};
  for (const [key, value] of Object.entries({ ...envelope, ...proposal, ...observed?.fields, attempt })) if (value !== undefined) args[key] = value;
  return { operation: observed?.operation ?? SUBMISSION_TOOL[protocol_version], args };
}

/** Only a rejection is enriched (after commit); an acceptance skips building it. */
function enrichmentFor(sub: Submission, target: TargetRow, outcome: Decided): RejectionEnrichment | null {
  if (outcome.events[0]?.type === 'ProposalAccepted') return null;
  return { request: requestOf(sub.input), current: target, nearMissSource: outcome.hints.nearMissSource, recorded: true, now: sub.now, observed: sub.observedLookups };
}

function decidedResponse(sub: Submission, target: TargetRow, outcome: Decided, done: Committed): SubmissionResult {
  const event = outcome.events[0]!;
  if (event.type !== 'ProposalAccepted' && event.type !== 'ProposalRejected') throw new Error(`a submission decided ${event.type}`);
  const view = event.type === 'ProposalAccepted' ? viewOfAccepted(event.data) : viewOfRejected(event.data);
  view.log_sequence = done.notification?.global_position ?? null;
  const after = outcome.state.exists ? outcome.state : target;
  return submissionResponse(view, {
    deduplicated: false,
    submittedKey: sub.submittedKey,
    current: { version: after.version, current_hash: after.current_hash },
    correlationId: sub.correlationId,
  });
}

/**
 * The fast path: decide on the last committed row this process saw and commit with ONE statement that
 * locks the row and aborts unless it is still that row (see commitOptimistically). Null when it cannot
 * apply (nothing cached, a parent to look up, a refusal whose wording the locked path owns) or the row
 * moved: nothing was written, and the locked path decides afresh. Outcomes are the locked path's: the
 * decision saw exactly the state the lock would have shown. An acceptance is refused by the guard too
 * when a workspace file publishes the target on acceptance: the locked path publishes it.
 */
type Answered = { body: SubmissionResult; enrichment: RejectionEnrichment | null };

/** Answered, or why not: the fast path does not apply, or the guard refused (the row moved, or the key is taken). */
async function submitOptimistically(ctx: AppContext, sub: Submission): Promise<Step<Answered> | 'declined' | 'refused'> {
  const head = ctx.contents.optimisticHead(sub.targetId);
  if (!head || isUuid(sub.input.parent_attempt_id) || sub.input.observed) return 'declined';
  const target: TargetRow = { exists: true, ...head };
  // A rebase goes through the acceptances between its guard and this head: committed, so they never
  // change, and the guarded statement commits only if the head is still this one.
  const since = sub.input.rebase === true ? await sinceLookup(ctx.db, target, sub.input.expected_target_version, sub.input.knownSteps ?? undefined) : null;
  const outcome = decide(commandFor(sub, { keyed: null, parent: null, since }), target);
  if (outcome.kind === 'refused') return 'declined'; // the locked path answers refusals
  if (outcome.recoveredAttemptId || outcome.events.length !== 1) return 'declined';
  const done = await commitOptimistically(ctx, commitInput(sub, target, outcome), sub.boundKey, acceptedHash(outcome) !== null);
  if (!done) return 'refused';
  return { kind: 'answer', answer: { body: decidedResponse(sub, target, outcome, done), enrichment: enrichmentFor(sub, target, outcome) } };
}

/** Under the row lock: the idempotency, lineage and observation lookups, then the decision. */
async function decideLocked(sub: Submission, tx: Sql, target: Extract<TargetRow, { exists: true }>) {
  const keyed = await findKeyed(tx, sub.targetId, sub.boundKey);
  const parent = await findParent(tx, sub.input.parent_attempt_id);
  const observed = sub.input.observed ? await sub.input.observed.lookup(tx, target) : undefined;
  sub.observedLookups = observed;
  const since = sub.input.rebase === true ? await sinceLookup(tx, target, sub.input.expected_target_version, sub.input.knownSteps ?? undefined) : null;
  return decide(commandFor(sub, { keyed, parent, since }, observed), target);
}

/**
 * The locked step: idempotency and lineage lookups → decide once → append → project, in one transaction.
 * An acceptance a workspace file publishes on acceptance is not committed here: it is handed to the
 * pipeline's publication step (publish-accepted.ts), which commits it once its file is installed.
 */
async function lockedStep(ctx: AppContext, sub: Submission, target: TargetRow | null, { tx, commit }: TargetUnit): Promise<Step<Answered>> {
  const answered = (body: SubmissionResult, enrichment: RejectionEnrichment | null = null): Step<Answered> => ({ kind: 'answer', answer: { body, enrichment } });
  if (!target) return answered(notFound(sub.targetId));
  const outcome = await decideLocked(sub, tx, target);
  if (outcome.kind === 'refused') return answered(refusalAnswer(outcome.refusal, requestOf(sub.input)));
  const enrichment = enrichmentFor(sub, target, outcome);
  if (outcome.recoveredAttemptId) {
    const view = await recoveredView(tx, outcome.recoveredAttemptId);
    const current = { version: target.version, current_hash: target.current_hash };
    return answered(submissionResponse(view, { deduplicated: true, submittedKey: sub.submittedKey, current, correlationId: sub.correlationId }), enrichment);
  }
  const accepted = acceptedChange(outcome, target, sub.attemptId, sub.now);
  if (accepted) {
    const binding = await workspaceFileOf(tx, sub.targetId);
    if (binding?.publish === 'on_accept') {
      sub.binding = binding;
      return { kind: 'effect', change: accepted };
    }
  }
  const done = await commit(commitInput(sub, target, outcome));
  return answered(decidedResponse(sub, target, outcome, done), enrichment);
}

/** Publishing an acceptance meets a target that moved at most this often before it answers the move. */
const PUBLISH_ROUNDS = 3;

export async function submitProposal(ctx: AppContext, input: SubmitProposalInput): Promise<SubmissionResult> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const sub: Submission = {
    input,
    targetId,
    attemptId: ctx.ids.next(),
    now: ctx.clock.now(),
    correlationId: input.include_correlation_id === true ? ctx.ids.next() : null,
    submittedKey: typeof input.client_request_id === 'string' ? input.client_request_id : null,
    boundKey: isValidRequestKey(input.client_request_id) ? input.client_request_id : null,
    strict: ctx.strictObservation && !input.observed,
  };
  ctx.contents.beginWrite(targetId);
  let answer: Answered;
  try {
    answer = await runTargetCommand(ctx, submissionPlan(ctx, sub));
  } finally {
    ctx.contents.endWrite(targetId);
  }
  const { body, enrichment } = answer;
  // Near misses and contexts are computed after commit: no row lock is held any more.
  return enrichment ? enrichRejection(body, enrichment) : body;
}

/** The submission as a command of the target pipeline. */
function submissionPlan(ctx: AppContext, sub: Submission): TargetCommandPlan<Answered> {
  return {
    targetId: sub.targetId,
    optimistic: () => submitOptimistically(ctx, sub),
    // A refused guard means another writer got in first (or the target's file publishes it), unless the key
    // was taken: a resend of a recorded request (deduplicated) says nothing about contention and must not
    // slow the next writes.
    afterRefusedGuard: (step) => {
      if (step.kind === 'effect' || step.answer.body.deduplicated !== true) ctx.contents.markContended(sub.targetId);
    },
    locked: (target, unit) => lockedStep(ctx, sub, target, unit),
    effect: async (change) => {
      if (!sub.binding) throw new Error(`submission: target ${sub.targetId} has no binding to publish to`);
      const published = await publishAccepted(ctx, change, sub.binding, {
        decideAgain: (tx, locked) => decideLocked(sub, tx, locked),
        answer: (locked, outcome, done) => decidedResponse(sub, locked, outcome, done),
        resend: resent(requestOf(sub.input), 'Send the same request again'),
        metadata: submissionMetadata(sub.input),
      });
      return published === 'moved' ? 'moved' : { body: published as SubmissionResult, enrichment: null };
    },
    rounds: { max: PUBLISH_ROUNDS, moved: (change) => ({ body: movedAnswer(sub, change.on), enrichment: null }) },
  };
}

/** The target kept moving while its file was being published: nothing was written or recorded. */
function movedAnswer(sub: Submission, target: TargetRow): SubmissionResult {
  return {
    status: 'rejected',
    target_file_id: sub.targetId,
    failure_reason: 'workspace_busy',
    failure_detail: `Target ${sub.targetId} kept changing (it was at version ${target.version}) while this change was being published to its file. Nothing was written or recorded: read the target again and send the change again.`,
    retryable: 'after_refresh',
    next_actions: [{ operation: OP.palimpsest_get_target, reason: 'Read the target as it is now', params: { target_file_id: sub.targetId } }],
  };
}
