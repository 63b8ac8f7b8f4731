import { SHA256_HEX, sha256Hex } from '../text/sha256';
import { findUnstorableText } from '../text/encoding';
import { applyProposal } from '../transaction/apply-proposal';
import { asciiJson, canonicalJson } from '../transaction/record-codec';
import { checkReplacementAdmission } from '../transaction/replacement-admission';
import { differingFields } from '../transaction/differing-fields';
import type { FailureReason, ParsedProposal, TextChange, TxFailure, TxSuccess, ValidationStage } from '../transaction/transaction.types';
import { failureContext } from '../diagnostics/rejection-context';
import { RETRYABLE_REASONS } from '../transaction/transaction.types';
import { checkGuardsAgainst, checkGuardSyntax, checkLineageSyntax, isNonNegativeInteger } from './guards';
import {
  differingComponents,
  isUuid,
  isValidRequestKey,
  requestFingerprint,
  requestKeyPreview,
  type FingerprintEnvelope,
} from './request-identity';
import type { SubmissionCommand } from './target.commands';
import type { NearMissSource, TargetRefusal } from './target-decision';
import type { AttemptData, ProposalRejectedData, RebasedFrom, TargetEvent } from './target.events';
import { rebaseSubmission } from './submission-rebase';
import type { ExistingTarget } from './target.state';
import { summarizeWarnings } from './warnings';
import type { ObservedProblem } from './observed-problem';

export const INVALID_INPUT_FORMAT = 'patchdiff-invalid-input/1';

export interface SubmissionDecision {
  kind: 'decided';
  events: TargetEvent[];
  /** Set when an attempt with the same key and fingerprint exists: answer it, append nothing. */
  recoveredAttemptId: string | null;
  /** The target text after an acceptance (saves the caller re-applying the record). */
  nextContent: string | null;
  /** Which ends of the text the acceptance left untouched, when the runtime knows. */
  textChange: TextChange | null;
  /** For match_absent: the failing buffer and query the response-only near misses scan (never stored). */
  nearMissSource?: NearMissSource | null;
}

/** A submission is decided (accepted or rejected, both recorded) or, before anything is recorded, refused. */
export type SubmissionOutcome = SubmissionDecision | { kind: 'refused'; refusal: TargetRefusal };

type Parsed = { ok: true; proposal: ParsedProposal } | { ok: false; failure: Pick<TxFailure, 'failure_reason' | 'failure_detail' | 'failed_change_id' | 'validation_stage' | 'diagnostic'> };

/**
 * What tells the three submission commands apart; every other step is shared (runSubmission). Each
 * decision file (submit-proposal, observed-submission, observed-batch) defines its form.
 */
export interface SubmissionForm<C extends SubmissionCommand> {
  /** Arguments beside the proposal that must be storable text, kept in invalid-input evidence too. */
  extraText(cmd: C): Record<string, unknown>;
  parse(cmd: C): Parsed;
  /** The record stored with the attempt, from the parsed record (or the raw proposal when it did not parse). */
  storedRecord(cmd: C, record: Record<string, unknown>): Record<string, unknown>;
  /** The form's own argument checks, after the guard and lineage syntax. */
  syntax(cmd: C): ObservedProblem | null;
  /** The runtime the accepted attempt is recorded (and replayed) under. */
  runtime(proposal: ParsedProposal): string;
  /** Under the row lock, before the stale guards: the observations the form names still describe the target. */
  observation(cmd: C, record: Record<string, unknown>, state: ExistingTarget): ObservedProblem | null;
}

function nearMissSourceOf(failure: TxFailure): NearMissSource | null {
  const q = failure.diagnostic.near_miss_query as { near_miss_query?: string } | undefined;
  if (failure.failure_reason !== 'match_absent' || typeof q?.near_miss_query !== 'string') return null;
  return { buffer: failure.failing_buffer, query: q.near_miss_query };
}

const isHash = (value: unknown): value is string => typeof value === 'string' && SHA256_HEX.test(value);

const orNull = <T>(value: T | undefined | null): T | null => (value === undefined ? null : value);

interface Rejection {
  reason: FailureReason;
  stage: ValidationStage;
  detail: string;
  failedChangeId?: string | null;
  diagnostic: Record<string, unknown>;
  /** The buffer the failing change saw; absent for failures before any change (canonical target). */
  failing?: { buffer: string; priorChanges: number; location: number | null };
}

function rejectedEvent(common: AttemptData, state: ExistingTarget, r: Rejection): TargetEvent {
  const retryable = RETRYABLE_REASONS.has(r.reason);
  const failing = r.failing ?? { buffer: state.content, priorChanges: 0, location: null };
  const data: ProposalRejectedData = {
    ...common,
    before_version: state.version,
    before_hash: state.current_hash,
    failure_reason: r.reason,
    failure_detail: r.detail,
    failed_change_id: r.failedChangeId ?? null,
    validation_stage: r.stage,
    retryable,
    diagnostic: {
      format: common.protocol_version,
      ...r.diagnostic,
      retryable,
      requires_new_submission: true,
      validation_stage: r.stage,
      failure_context: failureContext({ ...failing, observedVersion: state.version, observedHash: state.current_hash }),
    },
  };
  return { type: 'ProposalRejected', data };
}

function storedRecordOf<C extends SubmissionCommand>(form: SubmissionForm<C>, cmd: C, parsed: ParsedProposal | null): Record<string, unknown> {
  return form.storedRecord(cmd, parsed ? parsed.record : { protocol_version: cmd.protocol_version, ...cmd.proposal });
}

function observedRejection(common: AttemptData, state: ExistingTarget, p: ObservedProblem): TargetEvent {
  return rejectedEvent(common, state, { reason: p.reason, stage: p.stage, detail: p.detail, diagnostic: p.diagnostic });
}

function envelopeOf(cmd: SubmissionCommand, contentHash: string): FingerprintEnvelope {
  return {
    protocol_version: cmd.protocol_version,
    attempt_content_hash: contentHash,
    expected_target_version: orNull(cmd.expected_target_version) as number | null,
    expected_current_hash: orNull(cmd.expected_current_hash) as string | null,
    parent_attempt_id: orNull(cmd.parent_attempt_id) as string | null,
  };
}

function attemptCommon(cmd: SubmissionCommand, state: ExistingTarget, content: string, key: string | null): AttemptData {
  const contentHash = sha256Hex(content);
  const intent = typeof cmd.proposal.intent === 'string' ? cmd.proposal.intent : null;
  return {
    attempt_id: cmd.attempt_id,
    target_id: state.target_id,
    protocol_version: cmd.protocol_version,
    runtime_version: null,
    content,
    content_hash: contentHash,
    request_fingerprint: requestFingerprint(envelopeOf(cmd, contentHash)),
    client_request_id: key,
    // Only well-formed values enter typed columns; the raw ones are covered by the fingerprint.
    expected_target_version: isNonNegativeInteger(cmd.expected_target_version) ? cmd.expected_target_version : null,
    expected_current_hash: isHash(cmd.expected_current_hash) ? cmd.expected_current_hash : null,
    parent_attempt_id: isUuid(cmd.parent_attempt_id) ? cmd.parent_attempt_id.toLowerCase() : null,
    regeneration_attempt:
      isNonNegativeInteger(cmd.regeneration_attempt) && cmd.regeneration_attempt >= 1 ? cmd.regeneration_attempt : null,
    source: checkLineageSyntax(null, null, cmd.source) === null && typeof cmd.source === 'string' ? cmd.source : 'model_response',
    intent,
    editing_cycle_id: state.active_editing_cycle_id,
    submitted_at: cmd.now,
  };
}

const decision = (
  events: TargetEvent[],
  nextContent: string | null = null,
  textChange: TextChange | null = null,
): SubmissionDecision => ({ kind: 'decided', events, recoveredAttemptId: null, nextContent, textChange });

/**
 * The steps every submission takes, in the seed's order: encoding → key syntax → key recovery/conflict →
 * guard and lineage syntax → the form's syntax → lineage → shape → the form's observations → admission →
 * stale guards → apply. The form supplies what differs.
 */
export function runSubmission<C extends SubmissionCommand>(form: SubmissionForm<C>, cmd: C, state: ExistingTarget): SubmissionOutcome {
  const identified = identify(form, cmd, state);
  if (identified.kind !== 'identified') return identified;
  const checked = checkRequest(form, cmd, state, identified);
  if (checked.kind !== 'checked') return checked;
  return decideOnTarget(form, cmd, state, identified, checked.proposal);
}

/** The attempt as recorded so far: its common fields, the parse, and the record stored with it. */
interface Identified {
  kind: 'identified';
  common: AttemptData;
  parsedResult: Parsed;
  stored: Record<string, unknown>;
}

/** Encoding, then the request key: its syntax, and an earlier attempt holding it (recovered or in conflict). */
function identify<C extends SubmissionCommand>(form: SubmissionForm<C>, cmd: C, state: ExistingTarget): SubmissionOutcome | Identified {
  // The request key is not text but printable ASCII: a NUL or surrogate in it is invalid_client_request_id below.
  const extra = form.extraText(cmd);
  const encodingPath = findUnstorableText({ proposal: cmd.proposal, source: cmd.source, ...extra });
  if (encodingPath) return decision([encodingRejection(cmd, state, encodingPath, extra)]);

  const keySupplied = cmd.client_request_id !== undefined && cmd.client_request_id !== null;
  const parsedResult = form.parse(cmd);
  const parsed = parsedResult.ok ? parsedResult.proposal : null;
  const stored = storedRecordOf(form, cmd, parsed);
  const content = canonicalJson(stored);

  if (keySupplied && !isValidRequestKey(cmd.client_request_id)) {
    return decision([
      rejectedEvent(attemptCommon(cmd, state, content, null), state, {
        reason: 'context_invalid',
        stage: 'PROTOCOL_VALIDATION',
        detail: 'client_request_id must be 1 to 128 printable ASCII characters.',
        diagnostic: { code: 'invalid_client_request_id', submitted_key_preview: requestKeyPreview(cmd.client_request_id) },
      }),
    ]);
  }
  const key = keySupplied ? (cmd.client_request_id as string) : null;
  const common = attemptCommon(cmd, state, content, key);
  const keyed = cmd.lookups.keyed;
  if (key !== null && keyed) {
    if (keyed.request_fingerprint === common.request_fingerprint) {
      return { kind: 'decided', events: [], recoveredAttemptId: keyed.attempt_id, nextContent: null, textChange: null };
    }
    return decision([keyConflict(cmd, state, common, parsed, stored)]);
  }
  return { kind: 'identified', common, parsedResult, stored };
}

/** Guard and lineage syntax, the form's syntax, the parent attempt, the proposal's shape. */
function checkRequest<C extends SubmissionCommand>(
  form: SubmissionForm<C>, cmd: C, state: ExistingTarget, { common, parsedResult }: Identified,
): SubmissionOutcome | { kind: 'checked'; proposal: ParsedProposal } {

  const syntax =
    checkGuardSyntax(cmd.expected_target_version, cmd.expected_current_hash) ??
    checkLineageSyntax(cmd.parent_attempt_id, cmd.regeneration_attempt, cmd.source);
  if (syntax) {
    return decision([
      rejectedEvent(common, state, {
        reason: 'context_invalid',
        stage: 'PROTOCOL_VALIDATION',
        detail: syntax.detail,
        diagnostic: { code: syntax.code, argument: syntax.argument },
      }),
    ]);
  }
  const observedSyntax = form.syntax(cmd);
  if (observedSyntax) return decision([observedRejection(common, state, observedSyntax)]);
  if (common.parent_attempt_id !== null && !parentIsKnown(cmd, state)) {
    return decision([
      rejectedEvent(common, state, {
        reason: 'context_invalid',
        stage: 'PRECONDITION_GUARD',
        detail: 'parent_attempt_id does not name an earlier attempt on this target.',
        diagnostic: { code: 'parent_attempt_not_found', parent_attempt_id: common.parent_attempt_id },
      }),
    ]);
  }
  if (!parsedResult.ok) {
    const f = parsedResult.failure;
    return decision([
      rejectedEvent(common, state, {
        reason: f.failure_reason,
        stage: f.validation_stage,
        detail: f.failure_detail,
        failedChangeId: f.failed_change_id,
        diagnostic: f.diagnostic,
      }),
    ]);
  }
  return { kind: 'checked', proposal: parsedResult.proposal };
}

/** Under the row lock: the form's observations, admission, the stale guards, then the engine. */
function decideOnTarget<C extends SubmissionCommand>(
  form: SubmissionForm<C>, cmd: C, state: ExistingTarget, { common, stored }: Identified, proposal: ParsedProposal,
): SubmissionOutcome {
  const runtime = form.runtime(proposal);
  const withRuntime: AttemptData = { ...common, runtime_version: runtime, intent: proposal.intent };
  const unobservable = form.observation(cmd, proposal.record, state);
  if (unobservable) return decision([observedRejection(withRuntime, state, unobservable)]);

  if (proposal.protocol_version === 'patchdiff-tx/3') {
    const tooLarge = checkReplacementAdmission(String(proposal.record.replacement ?? ''));
    if (tooLarge) return { kind: 'refused', refusal: { kind: 'replacement_too_large', target_id: state.target_id, limit: tooLarge } };
  }

  const stale = checkGuardsAgainst(withRuntime.expected_target_version, withRuntime.expected_current_hash, state);
  if (stale) {
    const guard = { version: withRuntime.expected_target_version, hash: withRuntime.expected_current_hash };
    const rebase = rebaseSubmission(cmd, state, proposal, stored, runtime, guard);
    if (rebase?.kind === 'rebased') {
      const applied: AttemptData = { ...withRuntime, content: rebase.content, content_hash: sha256Hex(rebase.content) };
      return decision([acceptedEvent(applied, state, rebase.result, rebase.rebased)], rebase.result.text, rebase.result.changed ?? null);
    }
    return decision([
      rejectedEvent(withRuntime, state, {
        reason: stale.failure_reason,
        stage: 'PRECONDITION_GUARD',
        detail: stale.detail,
        diagnostic: {
          code: stale.failure_reason,
          expected_target_version: withRuntime.expected_target_version,
          expected_current_hash: withRuntime.expected_current_hash,
          current_version: state.version,
          current_hash: state.current_hash,
          ...(rebase ? rebase.diagnostic : {}),
        },
      }),
    ]);
  }

  const recorded = { protocol_version: proposal.protocol_version, runtime_version: runtime, record: stored };
  const result = applyProposal(recorded, state.content, {
    observedVersion: state.version,
    observedHash: state.current_hash,
  });
  if (!result.ok) {
    const event = rejectedEvent(withRuntime, state, {
      reason: result.failure_reason,
      stage: result.validation_stage,
      detail: result.failure_detail,
      failedChangeId: result.failed_change_id,
      diagnostic: result.diagnostic,
      failing: { buffer: result.failing_buffer, priorChanges: result.prior_changes, location: result.location?.offset ?? null },
    });
    return { ...decision([event]), nearMissSource: nearMissSourceOf(result) };
  }
  return decision([acceptedEvent(withRuntime, state, result)], result.text, result.changed ?? null);
}

/** What an acceptance records: the attempt, the versions and hashes, the engine's facts and its effects. */
function acceptedEvent(attempt: AttemptData, state: ExistingTarget, result: TxSuccess, rebased?: RebasedFrom): TargetEvent {
  return {
    type: 'ProposalAccepted',
    data: {
      ...attempt,
      before_version: state.version,
      after_version: state.version + 1,
      before_hash: state.current_hash,
      after_hash: sha256Hex(result.text),
      change_facts: result.facts,
      annotations: result.annotations,
      warnings: summarizeWarnings(result.warnings),
      effects: result.effects,
      ...(rebased ? { rebased } : {}),
    },
  };
}

function parentIsKnown(cmd: SubmissionCommand, state: ExistingTarget): boolean {
  const parent = cmd.lookups.parent;
  return parent !== null && parent.target_id === state.target_id;
}

function keyConflict(
  cmd: SubmissionCommand,
  state: ExistingTarget,
  common: AttemptData,
  parsed: ParsedProposal | null,
  submittedRecord: Record<string, unknown>,
): TargetEvent {
  const keyed = cmd.lookups.keyed!;
  const stored: FingerprintEnvelope = {
    protocol_version: keyed.protocol_version,
    attempt_content_hash: keyed.content_hash,
    expected_target_version: keyed.expected_target_version,
    expected_current_hash: keyed.expected_current_hash,
    parent_attempt_id: keyed.parent_attempt_id,
  };
  const submitted = envelopeOf(cmd, common.content_hash);
  const diagnostic: Record<string, unknown> = {
    code: 'request_key_conflict',
    existing_attempt_id: keyed.attempt_id,
    differing_components: differingComponents(stored, submitted),
    submitted_key_preview: requestKeyPreview(cmd.client_request_id),
  };
  const storedRecord = safeParse(keyed.content);
  if (storedRecord && parsed && keyed.protocol_version === cmd.protocol_version) {
    const diff = differingFields(storedRecord, submittedRecord, 10);
    diagnostic.differing_fields = diff.fields;
    diagnostic.differing_fields_truncated = diff.truncated;
  }
  return rejectedEvent({ ...common, client_request_id: null }, state, {
    reason: 'context_invalid',
    stage: 'PRECONDITION_GUARD',
    detail: 'client_request_id was already used on this target for a different proposal.',
    diagnostic,
  });
}

function safeParse(text: string): Record<string, unknown> | null {
  try {
    const value = JSON.parse(text);
    return value && typeof value === 'object' && !Array.isArray(value) ? value : null;
  } catch {
    return null;
  }
}

/** Invalid text is recorded as reversible ASCII-escaped evidence; no proposer string enters other columns. */
function encodingRejection(cmd: SubmissionCommand, state: ExistingTarget, path: string, extra: Record<string, unknown>): TargetEvent {
  const evidence = asciiJson({
    format: INVALID_INPUT_FORMAT,
    protocol_version: cmd.protocol_version,
    proposal: cmd.proposal,
    source: cmd.source ?? null,
    client_request_id: cmd.client_request_id ?? null,
    ...Object.fromEntries(Object.entries(extra).map(([k, v]) => [k, v ?? null])),
  });
  const common: AttemptData = {
    ...attemptCommon({ ...cmd, source: undefined, client_request_id: undefined }, state, evidence, null),
    intent: null,
  };
  return rejectedEvent(common, state, {
    reason: 'target_encoding_invalid',
    stage: 'PROTOCOL_VALIDATION',
    detail: `Text at ${path.replace(/^\$\.?/, '')} is not valid UTF-8 PostgreSQL text (unpaired surrogate or NUL).`,
    diagnostic: { code: 'target_encoding_invalid', path: path.replace(/^\$\.?/, '') },
  });
}
