import type { CatalogOperation } from '@palimpsest/core/errors/error-model';
import type { BatchLookup, BatchObservation } from '@palimpsest/core/target/target.commands';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { bundleObservations, findObservations, type ObservationRow } from '@palimpsest/projections/observations.queries';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../app-context';
import { submitProposal, type SubmissionResult } from '../submit-proposal/submit-proposal.handler';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { observedEnvelope, type SubmitObservedInput } from './submit-observed-input';
import { batchScopeActions, wantsScopeActions } from './observed-next-actions';
import { reverifyAll } from './reverify-observations';

/** The fields of the batch's record; the single form's are passed too, so that mixing them is a recorded refusal. */
const PROPOSAL_FIELDS = ['intent', 'observation_bundle_id', 'groups', 'observation_id', 'operations', 'expected_node_version'] as const;

/**
 * palimpsest_submit_observed_operations, batch form: 1-32 groups, each one observation of a bundle with
 * its tx/2 operations in a scope-local buffer, decided as ONE attempt under the target's row lock (every
 * participating scope re-verified in one engine pass) and recorded under palimpsest-observed-batch-r1.
 */
export async function submitObservedBatch(ctx: AppContext, input: SubmitObservedInput, operation: CatalogOperation): Promise<Result<OP.palimpsest_submit_observed_operations>> {
  const proposal: Record<string, unknown> = {};
  for (const key of PROPOSAL_FIELDS) if (input[key] !== undefined) proposal[key] = input[key];
  let found: BatchLookup['found'] = {};
  const result = await submitProposal(ctx, {
    ...observedEnvelope(input),
    proposal,
    observed: {
      operation,
      lookup: async (tx, target) => {
        const batch = await lookupBatch(ctx, tx, target, input.observation_bundle_id, input.groups);
        found = batch.found;
        return { batch };
      },
    },
  });
  if (result.status === 'accepted') return withSummary(result, input, found);
  if (!wantsScopeActions(result)) return result;
  const rows = [...new Set(groupIds(input.groups))].map((id) => found[id] as ObservationRow | undefined).filter((r): r is ObservationRow => r !== undefined);
  return batchScopeActions(ctx, result, rows);
}

/** The well-formed observation ids the groups name (lowercase), in group order. */
function groupIds(groups: unknown): string[] {
  if (!Array.isArray(groups)) return [];
  return groups.map((g) => (g && typeof g === 'object' ? (g as { observation_id?: unknown }).observation_id : null)).filter(isUuid).map((id) => id.toLowerCase());
}

/** Under the row lock: the bundle's observations and any other the groups name, and one engine pass over them. */
async function lookupBatch(ctx: AppContext, tx: Sql, target: TargetRow, bundleId: unknown, groups: unknown): Promise<BatchLookup> {
  if (!isUuid(bundleId)) return { bundle_known: false, found: {}, reverified: {} };
  const ids = groupIds(groups);
  const ofBundle = await bundleObservations(tx, bundleId.toLowerCase());
  const missing = ids.filter((id) => !ofBundle.some((r) => r.observation_id === id));
  const rows = [...ofBundle.filter((r) => ids.includes(r.observation_id)), ...(await findObservations(tx, missing))];
  const found: Record<string, BatchObservation> = Object.fromEntries(rows.map((r) => [r.observation_id, r]));
  return { bundle_known: ofBundle.length > 0, found, reverified: await reverifyAll(ctx, target, rows) };
}

/** An accepted batch's answer: the versions it stepped between, its bundle, and a summary per group. */
function withSummary(result: Extract<SubmissionResult, { status: 'accepted' }>, input: SubmitObservedInput, found: BatchLookup['found']): Result<OP.palimpsest_submit_observed_operations> {
  const groups = (input.groups as { observation_id: string; operations: unknown[] }[]).map((g, i) => {
    const o = found[g.observation_id.toLowerCase()]! as BatchObservation & Partial<ObservationRow>;
    return { group_index: i, observation_id: o.observation_id, ordinal: recorded(o.ordinal, 'ordinal'), symbol_name: recorded(o.symbol_name, 'symbol_name'), scope_start: o.scope_start, scope_end: o.scope_end, change_count: g.operations.length };
  });
  const version = result.version;
  return {
    ...result,
    before_version: version - 1,
    observation_bundle_id: String(input.observation_bundle_id).toLowerCase(),
    group_count: groups.length,
    change_count: groups.reduce((n, g) => n + g.change_count, 0),
    groups,
  };
}

/** A batch's recorded observation always has its symbol and its ordinal in the bundle: one without is a defect. */
function recorded<T>(value: T | null | undefined, field: string): T {
  if (value === null || value === undefined) throw new Error(`a batch group's observation has no ${field}`);
  return value;
}
