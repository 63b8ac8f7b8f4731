import { basisShift } from './basis-shift';
import type { BasisShift } from './basis-shift';
import { SPLIT_REASON_TEXT, graphemeSplits } from './grapheme-boundary';
import type { GraphemeSplit } from './grapheme-boundary';
import type { PlannedChange } from './parse-proposal';
import type { SequentialBuffer } from './sequential-buffer';
import type { StepSuccess } from './step';
import type { WarningDetail } from './transaction.types';

/** Per-change facts the warning rules look at, gathered while the change is applied. */
export interface ChangeWarningInput {
  change_id: string;
  change_index: number;
  noOp: boolean;
  basisShift?: BasisShift | null;
  graphemeSplits?: readonly GraphemeSplit[];
}

export interface WarningInput {
  changes: readonly ChangeWarningInput[];
  before: string;
  after: string;
  /** Where `after` may differ from `before` (UTF-16); outside it the texts are equal. */
  dirty?: { start: number; end: number } | null;
}

/** Equal lengths put the unchanged tails at the same offsets, so only the dirty range needs comparing. */
function unchanged(input: WarningInput): boolean {
  const { before, after, dirty } = input;
  if (before.length !== after.length) return false;
  if (dirty === undefined) return before === after;
  if (dirty === null) return true;
  return before.slice(dirty.start, dirty.end) === after.slice(dirty.start, dirty.end);
}

type ChangeCode = Exclude<WarningDetail['code'], 'no_op_transaction'>;

/** Per-change codes in the order the seed lists them; no_op_transaction always comes last. */
const CODE_ORDER: readonly ChangeCode[] = ['no_op_change', 'occurrence_index_basis_shift', 'grapheme_boundary_split'];

/**
 * What the warning rules need from one resolved change, read from the sequential buffer before the
 * change is applied to it (so `buf.applied` holds exactly the earlier changes). Reads only.
 */
export function changeWarningInput(buf: SequentialBuffer, change: PlannedChange, step: StepSuccess): ChangeWarningInput {
  const { span_start: start, span_end: end } = step.fact;
  const shift =
    change.kind === 'match' && change.occurrence_index !== null
      ? basisShift(buf, buf.text.slice(step.unitStart, step.unitEnd), change.occurrence_index, start, end)
      : null;
  return {
    change_id: change.change_id,
    change_index: change.change_index,
    noOp: step.noOp,
    basisShift: shift,
    graphemeSplits: graphemeSplits(buf.text, step.unitStart, step.unitEnd, start, end),
  };
}

/**
 * Advisory warnings for an accepted transaction, ordered by change_index, then by code (in CODE_ORDER),
 * then by boundary position; the transaction-wide no_op_transaction comes last.
 */
export function collectWarnings(input: WarningInput): WarningDetail[] {
  const warnings: WarningDetail[] = [];
  const changes = [...input.changes].sort((a, b) => a.change_index - b.change_index);
  for (const change of changes) {
    for (const code of CODE_ORDER) warnings.push(...changeWarnings(code, change));
  }
  if (unchanged(input)) {
    warnings.push({
      code: 'no_op_transaction',
      detail:
        'The transaction leaves the target text unchanged while the version still advances; ' +
        'a hash-only guard cannot detect this, so prefer a version guard.',
    });
  }
  return warnings;
}

function changeWarnings(code: ChangeCode, change: ChangeWarningInput): WarningDetail[] {
  const who = { change_id: change.change_id, change_index: change.change_index };
  switch (code) {
    case 'no_op_change':
      if (!change.noOp) return [];
      return [{ code, detail: `Change ${change.change_id} replaces its matched text with identical text.`, ...who }];
    case 'occurrence_index_basis_shift': {
      const shift = change.basisShift;
      if (shift === undefined || shift === null) return [];
      const detail = basisShiftDetail(change.change_id, shift);
      return [
        {
          code,
          detail,
          ...who,
          occurrence_index: shift.occurrence_index,
          transaction_start_occurrence_index: shift.transaction_start_occurrence_index,
        },
      ];
    }
    case 'grapheme_boundary_split':
      return (change.graphemeSplits ?? []).map((split) => ({
        code,
        detail: splitDetail(change.change_id, split),
        ...who,
        boundary: split.boundary,
        offset: split.offset,
      }));
  }
}

function basisShiftDetail(changeId: string, shift: BasisShift): string {
  const earlier = shift.prior_changes === 1 ? '1 earlier change' : `${shift.prior_changes} earlier changes`;
  const head = `Change ${changeId} selected occurrence_index ${shift.occurrence_index} in the sequential buffer after ${earlier} of this transaction`;
  if (shift.transaction_start_occurrence_index === null) {
    return `${head}, and landed on text those changes produced, which had no occurrence index when the transaction started.`;
  }
  return (
    `${head}; that occurrence was number ${shift.transaction_start_occurrence_index} when the transaction started, ` +
    'so an index read before the transaction (find_occurrences, exact_candidates) named a different one.'
  );
}

function splitDetail(changeId: string, split: GraphemeSplit): string {
  const where = split.boundary === 'insertion' ? 'insertion point' : `${split.boundary} boundary`;
  return (
    `The ${where} of change ${changeId} at code-point offset ${split.offset} falls inside a likely grapheme cluster: ` +
    `${SPLIT_REASON_TEXT[split.reason]}. Offsets count code points, not UTF-16 units.`
  );
}
