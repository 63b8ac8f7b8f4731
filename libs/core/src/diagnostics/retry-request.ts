import type { NextAction, CatalogOperation } from '../errors/error-model';
import { isValidRequestKey } from '../target/request-identity';
import { defaultChangeId } from '../transaction/parse-proposal';

/** The request a rejection answered: the operation and its arguments exactly as sent. */
export interface RejectedRequest {
  operation: CatalogOperation;
  args: Record<string, unknown>;
}

/**
 * The request offered again as the caller sent it, or with `params` in its place (the same request with
 * one field fixed). Its operation took it once, so these are that operation's arguments: the one next
 * action whose params the type check cannot see, because they came off the wire.
 */
export function resent(request: RejectedRequest, reason: string, params: Record<string, unknown> = request.args): NextAction {
  return { operation: request.operation, reason, params } as NextAction;
}

/** What a retry of a rejected request is rebuilt against. */
export interface RetryBasis {
  current_version: number;
  current_hash: string;
  /** The recorded rejected attempt a resubmission names as its parent; null for a preview (nothing recorded). */
  attempt_id: string | null;
}

export type Change = Record<string, unknown>;
export type ChangeField = 'edits' | 'operations';

const supplied = (v: unknown): boolean => v !== undefined && v !== null;

/** The ordered changes of a tx/1 or tx/2 request, or null (tx/3, or a shape the decider refused). */
export function changesOf(args: Record<string, unknown>): { field: ChangeField; items: Change[] } | null {
  for (const field of ['edits', 'operations'] as const) {
    const items = args[field];
    if (Array.isArray(items) && items.every((c) => c !== null && typeof c === 'object' && !Array.isArray(c))) return { field, items };
  }
  return null;
}

/** 0-based position of the change a rejection names (its change_id, or the default chg_00n by position). */
export function failedIndexOf(args: Record<string, unknown>, failedChangeId: string | null): number | null {
  const changes = changesOf(args);
  if (!changes || failedChangeId === null) return null;
  const i = changes.items.findIndex((c, at) => (c.change_id ?? defaultChangeId(at + 1)) === failedChangeId);
  return i === -1 ? null : i;
}

/**
 * A new request key derived from the rejected one: the rejected key stays bound to its proposal, and
 * deriving from the attempt id makes resending the same next action idempotent again.
 */
export function retryKey(key: string, attemptId: string): string {
  return `${key.slice(0, 100)}~retry-${attemptId.slice(0, 8)}`;
}

/**
 * The request resent against the current target: guards refreshed (the ones the caller used; the
 * version guard when it sent none), and for a resubmission a fresh request key and lineage naming
 * the rejected attempt.
 */
export function retryArgs(req: RejectedRequest, basis: RetryBasis): Record<string, unknown> {
  const args: Record<string, unknown> = { ...req.args };
  const hashGuard = supplied(args.expected_current_hash);
  if (supplied(args.expected_target_version) || !hashGuard) args.expected_target_version = basis.current_version;
  if (hashGuard) args.expected_current_hash = basis.current_hash;
  if (basis.attempt_id !== null) {
    if (isValidRequestKey(args.client_request_id)) args.client_request_id = retryKey(args.client_request_id, basis.attempt_id);
    const attempt = typeof args.attempt === 'number' && Number.isInteger(args.attempt) && args.attempt >= 1 ? args.attempt : 1;
    args.parent_attempt_id = basis.attempt_id;
    args.attempt = attempt + 1;
  }
  return args;
}

/** `args` with change `index` of its change list replaced. */
export function withChange(args: Record<string, unknown>, field: ChangeField, index: number, change: Change): Record<string, unknown> {
  const items = [...(args[field] as Change[])];
  items[index] = change;
  return { ...args, [field]: items };
}
