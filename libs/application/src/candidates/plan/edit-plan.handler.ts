import type { ProposeCandidate, TargetObservation } from '@palimpsest/core/candidate/candidate.commands';
import { decide } from '@palimpsest/core/candidate/candidate.decider';
import { initialCandidateState } from '@palimpsest/core/candidate/candidate.state';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../../app-context';
import { applicableBuiltins } from '../check-run/builtin-checks';
import { baseEntries, type ProposeInput } from '../propose/propose-input';
import { operationsView } from '../shared/candidate-view';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { errorResult } from '../shared/envelope';
import { observeTarget } from '../shared/target-texts';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export type PlanInput = Pick<ProposeInput, 'base' | 'operations' | 'intent'>;

/** The dry run of propose: the same decision on the same reads, nothing stored, no request_id. */
export async function editPlan(ctx: AppContext, input: PlanInput, policy: OwnerPolicy): Promise<Result<OP.palimpsest_edit_plan>> {
  const now = ctx.clock.now();
  const base = baseEntries(input.base);
  const targets: Record<string, TargetObservation | null> = {};
  for (const entry of base) targets[entry.target_id] = await observeTarget(ctx.db, entry.target_id, ctx.contents);
  const cmd: ProposeCandidate = {
    type: 'ProposeCandidate',
    now,
    candidate_id: ctx.ids.next(),
    expected_candidate_version: null,
    request_id: 'edit-plan',
    input_fingerprint: '',
    intent: input.intent ?? null,
    base,
    operations: input.operations,
    expires_at: now,
    lookups: { request: null, targets, base_contents: {} },
  };
  const d = decide(cmd, initialCandidateState);
  if (d.kind === 'refused') return errorResult(d.refusal);
  const event = d.kind === 'accepted' ? d.events[0] : null;
  if (!event || event.type !== 'CandidateProposed') throw new Error('edit_plan: propose decided no CandidateProposed');
  const files = event.data.base.map((b) => {
    const after = event.data.changes.find((c) => c.target_id === b.target_id)?.result_hash ?? b.hash;
    return { target_file_id: b.target_id, filename: b.filename, change: after === b.hash ? 'unchanged' : 'modified', base_version: b.version, before_sha256: b.hash, after_sha256: after };
  });
  return {
    status: 'ok',
    outcome: 'supported',
    operations: operationsView(event.data.operations),
    files,
    required_checks: policy.require_checks,
    suggested_checks: applicableBuiltins(event.data.base),
  };
}
