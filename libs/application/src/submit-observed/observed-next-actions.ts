import type { NextAction } from '@palimpsest/core/errors/error-model';
import { failedIndexOf } from '@palimpsest/core/diagnostics/retry-request';
import { smallestContaining } from '@palimpsest/core/structure/ready-selection';
import { bundleCaps, resolveBundle, SCOPE_LIMITS, type BundleSelector } from '@palimpsest/core/structure/scope-selection';
import type { StructureSymbol, SymbolKind } from '@palimpsest/core/structure/structure.port';
import { codePointLength } from '@palimpsest/core/text/code-points';
import { readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { ObservationRow } from '@palimpsest/projections/observations.queries';
import type { AppContext } from '../app-context';
import { currentSymbols, observeAgainAction } from '../observe-scope/observe-again';
import { discoveryAction, OBSERVE_SCOPE, readyObserveAction } from '../observe-scope/scope-next-actions';
import type { SubmissionResult } from '../submit-proposal/submit-proposal.handler';
import { isRecord } from '@palimpsest/core/shared/is-record';

/** The observation is what is wrong, not the operations: observing again is the next step. */
const OBSERVE_AGAIN = new Set(['OBSERVATION_TARGET_MISMATCH', 'OBSERVATION_CYCLE_MISMATCH', 'OBSERVATION_ALREADY_CONSUMED', 'STALE_OBSERVATION_VERSION', 'STALE_OBSERVATION_HASH']);
/** No observation to go back to: discovery lists what can be observed. */
const OBSERVE_FIRST = new Set(['OBSERVATION_REQUIRED', 'INVALID_OBSERVATION_ID', 'UNKNOWN_OBSERVATION_ID']);

const WHY: Record<string, string> = {
  OBSERVATION_TARGET_MISMATCH: 'The observation is of another target; on this one:',
  OBSERVATION_CYCLE_MISMATCH: 'A save closed the observation’s editing cycle:',
  OBSERVATION_ALREADY_CONSUMED: 'An accepted change already used this observation:',
  STALE_OBSERVATION_VERSION: 'The target moved since the observation:',
  STALE_OBSERVATION_HASH: 'The scope’s text changed since the observation:',
  OBSERVATION_BUNDLE_MISMATCH: 'The groups name observations of more than one bundle:',
};

/** What these actions read of a rejection: its code and position (the diagnostic), its target, its failed change, the actions it offers. */
interface Rejection {
  code: string;
  targetId: string;
  diagnostic: Record<string, unknown>;
  failedChangeId: string | null;
  nextActions: NextAction[];
}

function rejectionOf(result: SubmissionResult): Rejection | null {
  if (result.status !== 'rejected' || !isRecord(result.diagnostic) || typeof result.diagnostic.code !== 'string' || typeof result.target_file_id !== 'string') return null;
  return {
    code: result.diagnostic.code,
    targetId: result.target_file_id,
    diagnostic: result.diagnostic,
    failedChangeId: typeof result.failed_change_id === 'string' ? result.failed_change_id : null,
    nextActions: Array.isArray(result.next_actions) ? (result.next_actions as NextAction[]) : [],
  };
}

const codeOf = (result: SubmissionResult): string | null => rejectionOf(result)?.code ?? null;

/** Whether a rejection of an observed submission is answered by observing (again, first, or a wider scope). */
export function wantsScopeActions(result: SubmissionResult): boolean {
  const code = codeOf(result);
  return code !== null && (OBSERVE_AGAIN.has(code) || OBSERVE_FIRST.has(code) || code === 'OPERATION_OUTSIDE_OBSERVED_SCOPE' || code === 'OBSERVATION_BUNDLE_MISMATCH');
}

async function currentTarget(ctx: AppContext, targetId: string): Promise<{ target: TargetRow; symbols: StructureSymbol[] | null } | null> {
  const target = await readTargetRow(ctx.db, targetId, ctx.contents);
  return target ? { target, symbols: await currentSymbols(ctx, target) } : null;
}

const withActions = (result: SubmissionResult, actions: NextAction[]): SubmissionResult => ({ ...result, next_actions: actions }) as SubmissionResult;

/**
 * The single form's refusals that observing answers, read after the refusal (nothing is locked): the same
 * selection again, discovery when there is no observation, and for an operation outside its scope the
 * smallest scope that holds it, before the corrections and reads the rejection already offers.
 */
export async function singleScopeActions(ctx: AppContext, result: SubmissionResult, row: ObservationRow | null, args: Record<string, unknown>): Promise<SubmissionResult> {
  const rejected = rejectionOf(result);
  const code = rejected?.code;
  const now = rejected && (await currentTarget(ctx, rejected.targetId));
  if (!rejected || !code || !now) return result;
  const id = now.target.target_id;
  if (OBSERVE_FIRST.has(code) || (OBSERVE_AGAIN.has(code) && !row)) {
    return withActions(result, [discoveryAction(id, null, null, 'Observe the scope to change: list the scopes, then select one with symbol_name.')]);
  }
  if (OBSERVE_AGAIN.has(code) && row) return withActions(result, [observeAgainAction(id, now.symbols, row, WHY[code]!)]);
  if (code !== 'OPERATION_OUTSIDE_OBSERVED_SCOPE' || !row || !now.symbols) return result;
  const wider = containingScope(id, now.symbols, row, rejected.diagnostic, operationOf(args, rejected.failedChangeId));
  return withActions(result, [wider, ...rejected.nextActions]);
}

function operationOf(args: Record<string, unknown>, failedChangeId: string | null): Record<string, unknown> | null {
  const i = failedIndexOf(args, failedChangeId);
  return i === null ? null : ((args.operations as Record<string, unknown>[])[i] ?? null);
}

/**
 * The smallest scope of the current text holding the operation. Its offsets are in the buffer after the
 * request's earlier operations, all inside the observed scope: a point after the running scope moved by
 * what they added, one inside it is bounded by the scope itself.
 */
function containingScope(targetId: string, symbols: StructureSymbol[], row: ObservationRow, d: Record<string, unknown>, op: Record<string, unknown> | null): NextAction {
  const runningEnd = Number(d.scope_end);
  const shift = runningEnd - row.scope_end;
  const toOriginal = (x: number, side: 'start' | 'end') => (x <= row.scope_start ? x : x >= runningEnd ? x - shift : side === 'start' ? row.scope_start : row.scope_end);
  const insertion = d.start === d.end;
  const before = insertion && typeof op?.expected_before === 'string' ? codePointLength(op.expected_before) : 0;
  const after = insertion && typeof op?.expected_after === 'string' ? codePointLength(op.expected_after) : 0;
  const at = toOriginal(Number(d.start), 'start');
  const holder = smallestContaining(symbols, Math.max(0, at - before), toOriginal(Number(d.end), 'end') + after, insertion ? at : null);
  const why = 'The operation lies outside the observed scope:';
  const ready = holder && readyObserveAction(targetId, symbols, holder, {}, `${why} observe`);
  return ready ?? discoveryAction(targetId, null, null, `${why} no one scope holds it; list the scopes and observe the ones it touches (a bundle), or submit one operation per scope.`);
}

/** The batch form's: the groups' selections observed again as one bundle (one call, checked to resolve), or discovery. */
export async function batchScopeActions(ctx: AppContext, result: SubmissionResult, rows: ObservationRow[] /* in group order */): Promise<SubmissionResult> {
  const rejected = rejectionOf(result);
  const code = rejected?.code;
  const now = rejected && (await currentTarget(ctx, rejected.targetId));
  if (!code || !now || code === 'OPERATION_OUTSIDE_OBSERVED_SCOPE') return result;
  const id = now.target.target_id;
  const discover = discoveryAction(id, null, null, 'Observe the scopes to change: list them, then select them together with selections.');
  if (OBSERVE_FIRST.has(code) || !rows.length || !now.symbols) return withActions(result, [discover]);
  const selections: BundleSelector[] = rows.map((r) => ({ symbol_name: r.selector_name, ...(r.selector_kind ? { kind: r.selector_kind as SymbolKind } : {}) }));
  const resolved = resolveBundle(now.symbols, selections);
  if (!resolved.ok || bundleCaps(resolved.symbols, SCOPE_LIMITS.pageDefault)) return withActions(result, [discover]);
  const why = WHY[code] ?? 'The bundle no longer describes the target:';
  return withActions(result, [{ operation: OBSERVE_SCOPE, reason: `${why} observe the groups' ${selections.length} scopes again, as one bundle.`, params: { target_file_id: id, selections } }]);
}
