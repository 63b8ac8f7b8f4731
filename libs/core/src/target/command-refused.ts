/**
 * A command the decider answers without any event: an invalid argument refused before admission
 * (e.g. replacement_too_large) or a checkpoint whose guards are stale. The body is the wire answer.
 */
export class CommandRefused extends Error {
  constructor(readonly body: Record<string, unknown> & { status: string }) {
    super(String(body.failure_detail ?? body.status));
  }
}
