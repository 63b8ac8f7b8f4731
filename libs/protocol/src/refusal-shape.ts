import { RETRYABLES, type Retryable } from '@palimpsest/core/errors/error-model';
import { isRecord } from '@palimpsest/core/shared/is-record';
import { isRefusal, type AnyAnswer } from './outcome';

/** Codes of a refusal that clears by itself: the same request, sent again later, can succeed. */
const TRANSIENT_CODES = new Set(['TOOL_TIMEOUT', 'workspace_busy', 'resource_limit']);

const isRetryable = (value: unknown): value is Retryable => RETRYABLES.some((r) => r === value);

/**
 * One retryable on every refusal, of one type, in one place: the answer's top-level `retryable`
 * (none | same_request | after_refresh), as the error envelope's `error.retryable` means it. A
 * recorded diagnostic's advisory boolean (kept in the event and the full attempt log) is not repeated
 * in the answer; what it said is in the top-level value. The error envelope (status "error") keeps its
 * own `error.retryable`, the envelope's place for it.
 */
export function withOneRetryable<A extends AnyAnswer>(outcome: A): A {
  if (!isRefusal(outcome.status) || outcome.status === 'error') return outcome;
  const diagnostic = outcome.diagnostic;
  const advisory = isRecord(diagnostic) && typeof diagnostic.retryable === 'boolean' ? diagnostic.retryable : undefined;
  const retryable: Retryable = isRetryable(outcome.retryable)
    ? outcome.retryable
    : advisory !== undefined
      ? advisory ? 'after_refresh' : 'none'
      : TRANSIENT_CODES.has(String(outcome.code)) ? 'same_request' : 'none';
  if (advisory === undefined && outcome.retryable === retryable) return outcome;
  if (advisory === undefined || !isRecord(diagnostic)) return { ...outcome, retryable };
  const { retryable: _dropped, ...rest } = diagnostic;
  return { ...outcome, retryable, diagnostic: rest };
}

