import type { NextAction } from '@palimpsest/core/errors/error-model';
import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { resent, type RejectedRequest } from '@palimpsest/core/diagnostics/retry-request';
import type { ReplacementTooLarge } from '@palimpsest/core/transaction/replacement-admission';
import { toCanonicalLf } from '@palimpsest/core/text/canonical-text';
import type { TargetDecision, TargetRefusal } from '@palimpsest/core/target/target-decision';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { notFound, type NotFound } from './target-lookup';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/** What the decider decided (events, state, hints), once a refusal is ruled out. */
export type Decided = Extract<TargetDecision, { kind: 'decided' }>;

/** A checkpoint refused before anything is recorded: the seed's rejected shape, with nothing stored. */
export type UnrecordedRejection = Refusal<'rejected'> & {
  target_file_id: string;
  failure_reason: string;
  failure_detail: string;
  current_version: number;
  current_hash: string;
};

/**
 * The one place a target refusal becomes an answer. InitializeTarget on an id that exists cannot
 * happen (ids are fresh UUIDs): it is a defect, thrown to the transport's error path.
 */
export function refusalAnswer(refusal: TargetRefusal, request?: RejectedRequest): InvalidArgument | NotFound | UnrecordedRejection {
  switch (refusal.kind) {
    case 'target_not_found':
      return notFound(refusal.target_id);
    case 'target_exists':
      throw new Error(`target ${refusal.target_id} already exists: a fresh id was reused`);
    case 'unstorable_text':
      return invalidArgument('invalid_text_encoding', 'Text must be valid UTF-8 without NUL characters or unpaired surrogates.', {
        argument: refusal.argument,
      });
    case 'replacement_too_large': {
      const l = refusal.limit;
      return invalidArgument('replacement_too_large', `replacement exceeds the admission limit (${l.limit_exceeded}: ${l.actual} > ${l.limit}).`, {
        attempt_id: null,
        diagnostic: { ...l },
        next_actions: tooLargeActions(refusal.target_id, l, request),
      });
    }
    case 'guard_invalid':
      return {
        status: 'rejected',
        target_file_id: refusal.target_id,
        failure_reason: 'context_invalid',
        failure_detail: refusal.problem.detail,
        diagnostic: { code: refusal.problem.code, argument: refusal.problem.argument, retryable: false },
        current_version: refusal.current_version,
        current_hash: refusal.current_hash,
        retryable: 'none',
        next_actions: [
          {
            operation: OP.palimpsest_get_target,
            reason: `${refusal.problem.argument} is malformed: read the target's version and hash, then save with a guard set from them.`,
            params: { target_file_id: refusal.target_id },
          },
        ],
      };
    case 'guard_stale':
      return {
        status: 'rejected',
        target_file_id: refusal.target_id,
        failure_reason: refusal.stale.failure_reason,
        failure_detail: refusal.stale.detail,
        diagnostic: { code: refusal.stale.failure_reason, retryable: true },
        current_version: refusal.current_version,
        current_hash: refusal.current_hash,
        retryable: 'after_refresh',
        next_actions: [
          {
            operation: OP.palimpsest_get_target,
            reason: `The target moved to version ${refusal.current_version}: re-read it and save with the new guard.`,
            params: { target_file_id: refusal.target_id },
          },
        ],
      };
    default: {
      const unknown: never = refusal;
      throw new Error(`unhandled target refusal ${JSON.stringify(unknown)}`);
    }
  }
}

/**
 * A replacement over the limit: when only its CRLF/CR line endings put it over, the same request with LF
 * endings (what the target stores anyway); else the target's version and hash, to send edits instead.
 */
function tooLargeActions(targetId: string, limit: ReplacementTooLarge, request?: RejectedRequest): NextAction[] {
  const read: NextAction = { operation: OP.palimpsest_get_target, reason: 'Send the change as edits or operations against this version instead of a whole replacement.', params: { target_file_id: targetId } };
  const raw = request?.args.replacement;
  if (!request || !limit.canonical_would_fit || typeof raw !== 'string') return [read];
  const fixed = resent(request, 'Only its CRLF/CR line endings put the replacement over the limit: resend it with LF endings, which the target stores anyway.', { ...request.args, replacement: toCanonicalLf(raw) });
  return [fixed, read];
}
