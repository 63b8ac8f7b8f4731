import type { InvalidArgument } from '../errors/invalid-argument';

/**
 * A command the decider answers without any event: an invalid argument refused before admission
 * (e.g. replacement_too_large) or a checkpoint whose guards are stale. The body is the wire answer.
 */
/** The wire answer of a refused command: an invalid argument, or a rejection recorded nowhere. */
export type RefusedBody = InvalidArgument | { status: 'rejected'; failure_detail: string; [field: string]: unknown };

export class CommandRefused extends Error {
  constructor(readonly body: RefusedBody) {
    super(String(body.failure_detail ?? body.status));
  }
}
