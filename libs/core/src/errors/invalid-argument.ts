import type { RefusalDetails } from './refusal-details';

/**
 * An argument the service refuses before doing any work: no event, no attempt row.
 * Seed rule: every invalid_argument has status and failure_detail, and a stable code where one exists.
 */
export type InvalidArgument = RefusalDetails & {
  status: 'invalid_argument';
  code: string;
  failure_detail: string;
};

export function invalidArgument(
  code: string,
  failureDetail: string,
  extra: RefusalDetails = {},
): InvalidArgument {
  return { status: 'invalid_argument', code, failure_detail: failureDetail, ...extra };
}

export type Checked<T> = { ok: true; value: T } | { ok: false; error: InvalidArgument };

export const ok = <T>(value: T): Checked<T> => ({ ok: true, value });
export const refuse = <T = never>(error: InvalidArgument): Checked<T> => ({ ok: false, error });
