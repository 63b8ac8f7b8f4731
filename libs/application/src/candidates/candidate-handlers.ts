import { ALLOW_ALL, READ_ONLY, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { CANDIDATE_OPERATIONS } from '@palimpsest/protocol/catalog/operations/candidates.operations';
import type { HandlerSession, OperationHandler } from '../dispatch/operation-handler';
import { applyChange } from './apply/apply.handler';
import { checkRun } from './check-run/check-run.handler';
import { discardChange } from './discard/discard.handler';
import { inspectChange } from './inspect/inspect.handler';
import { editPlan } from './plan/edit-plan.handler';
import { proposeChange } from './propose/propose.handler';

type CandidateOperation = (typeof CANDIDATE_OPERATIONS)[number]['name'];

const policyOf = (s: HandlerSession): OwnerPolicy => s.policy ?? (s.profile === 'read-only' ? READ_ONLY : ALLOW_ALL);

/**
 * A candidate operation answers its refusals as envelopes. An exception (a database that went away, a
 * defect) is not caught here: it reaches the transport's one error path, which logs it and answers as
 * every other operation does (503 for a lost database, whose outcome only a resend can tell).
 * The caller's owner policy (absent: the session's profile decides) gates checks and approvals.
 */
export const CANDIDATE_HANDLERS: { [N in CandidateOperation]: OperationHandler<N> } = {
  palimpsest_change_propose: (ctx, a, s) => proposeChange(ctx, { ...a, session_id: s.correlationId ?? null }, policyOf(s)),
  palimpsest_edit_plan: (ctx, a, s) => editPlan(ctx, a, policyOf(s)),
  palimpsest_change_inspect: (ctx, a) => inspectChange(ctx, a),
  palimpsest_check_run: (ctx, a, s) => checkRun(ctx, a, policyOf(s)),
  palimpsest_change_apply: (ctx, a, s) => applyChange(ctx, a, policyOf(s), s),
  palimpsest_change_discard: (ctx, a) => discardChange(ctx, a),
};
