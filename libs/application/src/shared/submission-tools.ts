import type { ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';

/** The submission tool that carries each proposal format (next actions name it). */
export const SUBMISSION_TOOL: Record<ProtocolVersion, string> = {
  'patchdiff-tx/1': 'palimpsest_submit_edits',
  'patchdiff-tx/2': 'palimpsest_submit_operations',
  'patchdiff-tx/3': 'palimpsest_submit_replacement',
};
