import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import { isUuid } from '@palimpsest/core/target/request-identity';

export type NotFound = RefusalDetails & {
  status: 'not_found';
  code: 'target_not_found';
  target_file_id: string;
  failure_detail: string;
};

export function notFound(targetId: string): NotFound {
  return {
    status: 'not_found',
    code: 'target_not_found',
    target_file_id: targetId,
    failure_detail: `No target with id ${targetId}. Create one with palimpsest_initialize_target.`,
    // Nothing can be called as is: creating a target needs its content, which only the caller has.
    next_actions: [],
  };
}

/**
 * The target id in its stored (lowercase) form, or the refusal of a malformed one before any query
 * (no row, no event).
 */
export function targetIdOf(value: unknown): { id: string; error?: undefined } | { id?: undefined; error: InvalidArgument } {
  if (isUuid(value)) return { id: value.toLowerCase() };
  return {
    error: invalidArgument('invalid_target_file_id', 'target_file_id must be a UUID (8-4-4-4-12 hexadecimal).', {
      argument: 'target_file_id',
    }),
  };
}
