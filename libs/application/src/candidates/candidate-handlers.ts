import { ALLOW_ALL, READ_ONLY, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../app-context';
import { applyChange } from './apply/apply.handler';
import { checkRun } from './check-run/check-run.handler';
import { discardChange } from './discard/discard.handler';
import { inspectChange } from './inspect/inspect.handler';
import { editPlan } from './plan/edit-plan.handler';
import { proposeChange } from './propose/propose.handler';
import type { CandidateAnswer } from './shared/envelope';

/** The session a candidate handler sees: the caller's owner policy (absent: the session's profile decides). */
interface Session {
  profile: 'full' | 'read-only';
  policy?: OwnerPolicy | null;
}

type Handler = (ctx: AppContext, args: Record<string, any>, session: Session) => Promise<Record<string, unknown>>;

const policyOf = (s: Session): OwnerPolicy => s.policy ?? (s.profile === 'read-only' ? READ_ONLY : ALLOW_ALL);

/**
 * A candidate operation answers its refusals as envelopes. An exception (a database that went away, a
 * defect) is not caught here: it reaches the transport's one error path, which logs it and answers as
 * every other operation does (503 for a lost database, whose outcome only a resend can tell).
 */
function enveloped(run: (ctx: AppContext, args: Record<string, any>, policy: OwnerPolicy) => Promise<CandidateAnswer>): Handler {
  return (ctx, args, session) => run(ctx, args, policyOf(session));
}

export const CANDIDATE_HANDLERS: Record<string, Handler> = {
  palimpsest_change_propose: enveloped((ctx, a, p) => proposeChange(ctx, a as never, p)),
  palimpsest_edit_plan: enveloped((ctx, a, p) => editPlan(ctx, a as never, p)),
  palimpsest_change_inspect: enveloped((ctx, a) => inspectChange(ctx, a as never)),
  palimpsest_check_run: enveloped((ctx, a, p) => checkRun(ctx, a as never, p)),
  palimpsest_change_apply: enveloped((ctx, a, p) => applyChange(ctx, a as never, p)),
  palimpsest_change_discard: enveloped((ctx, a) => discardChange(ctx, a as never)),
};
