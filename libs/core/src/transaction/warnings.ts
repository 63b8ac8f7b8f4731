import type { WarningDetail } from './transaction.types';

/** Per-change facts the warning rules look at. Later rules (basis shift, grapheme split) add fields here. */
export interface ChangeWarningInput {
  change_id: string;
  change_index: number;
  noOp: boolean;
}

export interface WarningInput {
  changes: readonly ChangeWarningInput[];
  before: string;
  after: string;
}

/** Advisory warnings for an accepted transaction: per-change warnings in change order, then transaction-wide ones. */
export function collectWarnings(input: WarningInput): WarningDetail[] {
  const warnings: WarningDetail[] = [];
  for (const change of input.changes) {
    if (change.noOp) {
      warnings.push({
        code: 'no_op_change',
        detail: `Change ${change.change_id} replaces its matched text with identical text.`,
        change_id: change.change_id,
        change_index: change.change_index,
      });
    }
  }
  if (input.before === input.after) {
    warnings.push({
      code: 'no_op_transaction',
      detail:
        'The transaction leaves the target text unchanged while the version still advances; ' +
        'a hash-only guard cannot detect this, so prefer a version guard.',
    });
  }
  return warnings;
}
