import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { refusal, type Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { ENVELOPE_OPERATION_NAMES } from '@palimpsest/protocol/catalog/operations/candidates.operations';

/**
 * Seed 000's answer shape for candidate operations: {status: "error", error: {code, reason, message,
 * retryable, next_actions, operation_index?, target?, details?}}. Successes are {status: "ok", …}.
 */

export type CandidateAnswer<S extends { status: 'ok' }> = S | EnvelopeAnswer;

/** palimpsest_change_apply's answer: the receipt, or the envelope. */
export type ApplyAnswer = Result<OP.palimpsest_change_apply>;

/** A candidate operation's refusal: status "error" and the envelope. */
export type EnvelopeAnswer = { status: 'error'; error: Refusal };

export function errorResult(r: Refusal): EnvelopeAnswer {
  return { status: 'error', error: r };
}

export const isEnvelopeOperation = (name: string): boolean => ENVELOPE_OPERATION_NAMES.has(name);

/** An admission refusal (unknown, missing or ill-typed argument) in the envelope: invalid_arguments. */
export function admissionEnvelope(refused: InvalidArgument): EnvelopeAnswer {
  const errors = (refused.errors as { path: string; message: string }[] | undefined) ?? [];
  const path = errors[0]?.path ?? refused.argument ?? '';
  const index = /^operations\.(\d+)/.exec(String(path));
  const reason = refused.code === 'invalid_argument_value' ? 'schema' : refused.code;
  return errorResult(
    refusal('invalid_arguments', reason, refused.failure_detail, {
      ...(index ? { operation_index: Number(index[1]) } : {}),
      details: {
        ...(refused.argument ? { argument: refused.argument } : {}),
        ...(refused.unknown_arguments ? { unknown_arguments: refused.unknown_arguments } : {}),
        ...(refused.missing_arguments ? { missing_arguments: refused.missing_arguments } : {}),
        ...(errors.length ? { errors } : {}),
      },
    }),
  );
}

export function permissionDenied(reason: string, message: string, details: Record<string, unknown> = {}): EnvelopeAnswer {
  return errorResult(refusal('permission_denied', reason, message, { details }));
}
