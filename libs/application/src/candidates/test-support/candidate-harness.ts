import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { dispatchRequest } from '../../dispatch/dispatch';
import type { AppHarness } from '../../test-support/app-harness';

/** Calls and small helpers shared by the candidate integration specs. */

export type Answer = Record<string, any>;

export function candidateCalls(h: AppHarness, policy?: OwnerPolicy) {
  const call = (name: string, args: unknown) => dispatchRequest(h.ctx, name, args, policy ? { policy } : {}) as Promise<Answer>;
  let n = 0;
  const fresh = (prefix: string) => `${prefix}-${Date.now().toString(36)}-${++n}`;
  return {
    call,
    fresh,
    async propose(base: [string, number][], operations: Record<string, unknown>[], extra: Record<string, unknown> = {}): Promise<Answer> {
      return call('palimpsest_change_propose', {
        request_id: fresh('prop'),
        base: base.map(([target_file_id, version]) => ({ target_file_id, version })),
        operations,
        ...extra,
      });
    },
    async apply(candidate: string, version: number, extra: Record<string, unknown> = {}): Promise<Answer> {
      return call('palimpsest_change_apply', { candidate, expected_candidate_version: version, request_id: fresh('apply'), ...extra });
    },
    async content(target: string): Promise<{ version: number; text: string; hash: string }> {
      const r = await call('palimpsest_get_target', { target_file_id: target });
      return { version: r.version, text: r.current_content, hash: r.current_hash };
    },
  };
}

export const edit = (target: string, match: string, replace: string, extra: Record<string, unknown> = {}) => ({
  kind: 'edit',
  target_file_id: target,
  match,
  replace,
  ...extra,
});

export function expectOk(answer: Answer): Answer {
  if (answer.status !== 'ok') throw new Error(`expected ok, got ${JSON.stringify(answer)}`);
  return answer;
}

/** Retries `read` until it stops throwing (or the time is up, when its last error is thrown). */
export async function until<T>(read: () => Promise<T>, timeoutMs = 10_000): Promise<T> {
  const deadline = Date.now() + timeoutMs;
  for (;;) {
    try {
      return await read();
    } catch (err) {
      if (Date.now() > deadline) throw err;
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }
}
