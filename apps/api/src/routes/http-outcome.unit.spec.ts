import type { NextAction, Retryable } from '@palimpsest/core/errors/error-model';
import { httpOutcome } from './http-outcome';
import { routeOf } from './route-table';

const edits = routeOf('palimpsest_submit_edits');
const rejected = (failure_reason: string, diagnostic: Record<string, unknown> = {}) => ({ status: 'rejected' as const, target_file_id: 't', failure_reason, diagnostic });

describe('operation result → HTTP status and envelope', () => {
  it('answers successes with the route\'s status', () => {
    expect(httpOutcome(routeOf('palimpsest_initialize_target'), { status: 'ok' })).toEqual({ status: 201 });
    expect(httpOutcome(edits, { status: 'accepted' })).toEqual({ status: 200 });
    expect(httpOutcome(routeOf('palimpsest_save'), { status: 'saved' })).toEqual({ status: 201 });
    expect(httpOutcome(routeOf('palimpsest_replay'), { status: 'failed' })).toEqual({ status: 200 });
  });

  it('sends stale guards and request-key conflicts to 409, other rejections to 422', () => {
    expect(httpOutcome(edits, rejected('target_version_mismatch'))).toMatchObject({ status: 409, error: { code: 'precondition_failed', retryable: 'after_refresh' } });
    expect(httpOutcome(edits, rejected('context_invalid', { code: 'request_key_conflict' }))).toMatchObject({ status: 409, error: { code: 'conflict', retryable: 'none' } });
    expect(httpOutcome(edits, rejected('match_ambiguous'))).toMatchObject({ status: 422, error: { code: 'proposal_rejected', retryable: 'after_refresh' } });
    expect(httpOutcome(edits, rejected('protocol_invalid'))).toMatchObject({ status: 422, error: { retryable: 'none', next_actions: [] } });
    expect(httpOutcome(routeOf('palimpsest_preview'), rejected('match_absent'))).toEqual({ status: 200 });
  });

  it('maps refusals: 400, 403 for a policy, 404, 413 for an oversized replacement', () => {
    expect(httpOutcome(edits, { status: 'invalid_argument', code: 'unknown_argument' })).toMatchObject({ status: 400, error: { code: 'invalid_arguments', reason: 'unknown_argument' } });
    expect(httpOutcome(edits, { status: 'invalid_argument', code: 'operation_not_permitted' })).toMatchObject({ status: 403 });
    expect(httpOutcome(edits, { status: 'invalid_argument', code: 'replacement_too_large' })).toMatchObject({ status: 413, error: { code: 'resource_limit' } });
    const observe = routeOf('palimpsest_observe_scope');
    const discovery: NextAction[] = [{ operation: 'palimpsest_observe_scope', reason: 'List the scopes.', params: { target_file_id: 't' } }];
    expect(httpOutcome(observe, { status: 'invalid_argument', code: 'conflicting_selectors', next_actions: discovery })).toMatchObject({ status: 400, error: { next_actions: [{ operation: 'palimpsest_observe_scope', method: 'POST' }] } });
    expect(httpOutcome(observe, { status: 'unsupported', code: 'UNSUPPORTED_LANGUAGE', next_actions: discovery })).toMatchObject({ status: 400, error: { next_actions: [{ method: 'POST' }] } });
    expect(httpOutcome(edits, { status: 'not_found', code: 'target_not_found', next_actions: [{ operation: 'palimpsest_initialize_target', reason: 'Create a target', params: { filename: 'a.md' } }] })).toMatchObject({ status: 404, error: { next_actions: [{ method: 'POST', path: '/v1/targets' }] } });
  });

  it('keeps a candidate answer\'s own envelope, picks the status from its code and routes its next actions', () => {
    const apply = routeOf('palimpsest_change_apply');
    const error = (code: string, retryable: Retryable = 'none') => ({ status: 'error' as const, error: { code, reason: code, message: 'm', retryable, next_actions: [] } });
    const status = (r: ReturnType<typeof httpOutcome>) => r.status;
    expect(status(httpOutcome(apply, error('conflict')))).toBe(409);
    expect(status(httpOutcome(apply, error('snapshot_expired')))).toBe(410);
    expect(status(httpOutcome(apply, error('permission_denied')))).toBe(403);
    expect(status(httpOutcome(apply, error('resource_limit', 'same_request')))).toBe(503);
    const own = { code: 'precondition_failed', reason: 'external_write', message: 'm', retryable: 'after_refresh' as const, details: { moved: [] } };
    const next: NextAction[] = [{ operation: 'palimpsest_change_discard', reason: 'r', params: { candidate: 'c-1' } }];
    expect(httpOutcome(apply, { status: 'error', error: { ...own, next_actions: next } })).toEqual({
      status: 409,
      error: { ...own, next_actions: [{ ...next[0], method: 'POST', path: '/v1/candidates/c-1/discard', body: {} }] },
    });
  });
});
