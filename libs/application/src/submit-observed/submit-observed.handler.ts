import type { ObservedLookup } from '@palimpsest/core/target/target.commands';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { findObservation, type ObservationRow } from '@palimpsest/projections/observations.queries';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import { singleScopeActions, wantsScopeActions } from './observed-next-actions';
import { isNodeMismatch, lookupNodeGuard, nodeGuardActions } from './node-guard';
import { reverifyAll } from './reverify-observations';
import { submitObservedBatch } from './submit-observed-batch';
import { submitProposal } from '../submit-proposal/submit-proposal.handler';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { SUBMIT_OBSERVED } from '../shared/submission-tools';
import { observedEnvelope, type SubmitObservedInput } from './submit-observed-input';

export { SUBMIT_OBSERVED };
export type { SubmitObservedInput } from './submit-observed-input';

/**
 * palimpsest_submit_observed_operations, single form (the batch form, with observation_bundle_id or groups,
 * is submitObservedBatch's): tx/2 operations restricted to one observation,
 * decided and recorded like palimpsest_submit_operations (accepted or rejected, audited), under the
 * observed runtime. Every observation refusal is a recorded rejection with the seed's code.
 */
export async function submitObserved(ctx: AppContext, input: SubmitObservedInput): Promise<Result<OP.palimpsest_submit_observed_operations>> {
  if (input.observation_bundle_id !== undefined || input.groups !== undefined) return submitObservedBatch(ctx, input, SUBMIT_OBSERVED);
  const proposal: Record<string, unknown> = {};
  if ('intent' in input) proposal.intent = input.intent;
  if ('operations' in input) proposal.operations = input.operations;
  let row: ObservationRow | null = null;
  const result = await submitProposal(ctx, {
    ...observedEnvelope(input),
    proposal,
    observed: {
      operation: SUBMIT_OBSERVED,
      fields: { observation_id: input.observation_id },
      lookup: async (tx, target) => {
        const found = await lookupObservation(ctx, tx, target, input.observation_id);
        row = found.row;
        if (!('expected_node_version' in input) || input.expected_node_version === undefined) return { observed: found.lookup };
        // Only a current observation has a node to compare: else its own refusal comes first and the guard is not read.
        const guard = row && found.lookup.reverified ? await lookupNodeGuard(ctx, tx, target, row, input.expected_node_version) : { expected_node_version: input.expected_node_version, path: null, node_id: null, current_node_version: null };
        return { observed: { ...found.lookup, node_guard: guard } };
      },
    },
  });
  if (isNodeMismatch(result)) return nodeGuardActions(result, row);
  return wantsScopeActions(result) ? singleScopeActions(ctx, result, row, input as Record<string, unknown>) : result;
}

/** The observation under the row lock, and whether the engine names its scope again in the locked text. */
async function lookupObservation(ctx: AppContext, tx: Sql, target: TargetRow, observationId: unknown): Promise<{ lookup: ObservedLookup; row: ObservationRow | null }> {
  if (!isUuid(observationId)) return { lookup: { observation_id: observationId, found: null, reverified: false }, row: null };
  const row = await findObservation(tx, observationId.toLowerCase());
  const reverified = row ? ((await reverifyAll(ctx, target, [row]))[row.observation_id] ?? false) : false;
  return { lookup: { observation_id: observationId, found: row, reverified }, row };
}
