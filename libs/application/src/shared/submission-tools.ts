import type { CatalogOperation } from '@palimpsest/core/errors/error-model';
import type { ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

const PROPOSAL_FIELDS = ['intent', 'edits', 'operations', 'replacement'] as const;

/** Only the proposal fields the caller supplied: a field of another format is refused even when null. */
export function proposalOf(args: Record<string, unknown>): Record<string, unknown> {
  const proposal: Record<string, unknown> = {};
  for (const key of PROPOSAL_FIELDS) if (key in args) proposal[key] = args[key];
  return proposal;
}

/** The observed submission tool (both forms: one observation, or a bundle). */
export const SUBMIT_OBSERVED = OP.palimpsest_submit_observed_operations;

/** The submission tool that carries each proposal format (next actions name it). */
export const SUBMISSION_TOOL: Record<ProtocolVersion, CatalogOperation> = {
  'patchdiff-tx/1': OP.palimpsest_submit_edits,
  'patchdiff-tx/2': OP.palimpsest_submit_operations,
  'patchdiff-tx/3': OP.palimpsest_submit_replacement,
};
