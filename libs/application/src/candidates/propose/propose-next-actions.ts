import type { Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { NextAction } from '@palimpsest/core/errors/error-model';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { Params } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../../app-context';
import { editPlan } from '../plan/edit-plan.handler';
import { proposeArgs, type ProposeInput } from './propose-input';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * A refused proposal's deterministic fixes, as complete palimpsest_change_propose requests: the
 * same operations over a base that moved, refreshed to the current versions, or an ambiguous
 * match with each listed occurrence selected. Each is offered only when the dry run
 * (palimpsest_edit_plan: the same decision on the same reads) accepts it, under a request_id
 * derived from the rejected one, so resending the same action is idempotent.
 */

type Moved = { target_file_id: string; current_version: number };
type Listed = { occurrence_index: number; start: number; before: string; after: string };

const derivedId = (requestId: string, suffix: string) => `${requestId.slice(0, 100)}~${suffix}`.slice(0, 128);

async function planned(ctx: AppContext, args: ProposeInput, policy: OwnerPolicy): Promise<boolean> {
  const plan = await editPlan(ctx, { base: args.base, operations: args.operations, intent: args.intent }, policy);
  return plan.status === 'ok';
}

/** The dry run planned these arguments (`planned` said so): they are a request palimpsest_change_propose takes. */
const proposable = (args: ProposeInput, wasPlanned: boolean): args is ProposeInput & Params<OP.palimpsest_change_propose> => wasPlanned;

function refreshedBase(input: ProposeInput, r: Refusal): ProposeInput | null {
  const moved = (r.details?.moved as Moved[] | undefined) ?? [];
  if (!moved.length) return null;
  const now = new Map(moved.map((m) => [m.target_file_id.toLowerCase(), m.current_version]));
  const base = input.base.map((b) => ({ ...b, version: now.get(b.target_file_id.toLowerCase()) ?? b.version }));
  return { ...proposeArgs(input), base, request_id: derivedId(input.request_id, `base-${base.map((b) => b.version).join('.')}`) };
}

function occurrenceChoices(input: ProposeInput, r: Refusal): { args: ProposeInput; listed: Listed }[] {
  const index = r.operation_index;
  const found = (r.details?.diagnostic as { exact_candidates?: { candidates?: Listed[] } } | undefined)?.exact_candidates?.candidates;
  const op = index === undefined ? undefined : input.operations[index];
  if (!op || !found || (op.kind !== 'edit' && op.kind !== 'match')) return [];
  const { anchor_before: _before, anchor_after: _after, ...rest } = op;
  return found.map((listed) => {
    const operations = input.operations.map((o, i) => (i === index ? { ...rest, occurrence_index: listed.occurrence_index } : o));
    return { args: { ...proposeArgs(input), operations, request_id: derivedId(input.request_id, `occurrence-${listed.occurrence_index}`) }, listed };
  });
}

export async function withRetryActions(ctx: AppContext, input: ProposeInput, r: Refusal, policy: OwnerPolicy): Promise<Refusal> {
  if (input.candidate !== undefined) return r; // an extension's base is the candidate's: nothing to refresh
  const fixes: NextAction[] = [];
  const base = r.reason === 'base_not_head' ? refreshedBase(input, r) : null;
  if (base && proposable(base, await planned(ctx, base, policy))) {
    fixes.push({ operation: OP.palimpsest_change_propose, reason: 'The base moved and these operations still apply at the current versions: propose them on that base.', params: { ...base } });
  }
  for (const { args, listed } of occurrenceChoices(input, r)) {
    if (!proposable(args, await planned(ctx, args, policy))) continue;
    const excerpt = JSON.stringify(`${listed.before}⟦…⟧${listed.after}`);
    const reason = `Occurrence ${listed.occurrence_index}, at offset ${listed.start} (${excerpt}): propose with operations[${r.operation_index}].occurrence_index ${listed.occurrence_index}.`;
    fixes.push({ operation: OP.palimpsest_change_propose, reason, params: { ...args } });
  }
  return fixes.length ? { ...r, next_actions: [...fixes, ...r.next_actions].slice(0, 10) } : r;
}
