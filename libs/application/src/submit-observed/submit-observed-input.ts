import type { SubmitProposalInput } from '../submit-proposal/submit-proposal.handler';

export const SUBMIT_OBSERVED = 'palimpsest_submit_observed_operations';

/** The submission tools' common arguments and either form's own: one observation and its operations, or a bundle and its groups. */
export type SubmitObservedInput = Omit<SubmitProposalInput, 'protocol_version' | 'proposal' | 'observed'> & {
  observation_id?: unknown;
  intent?: unknown;
  operations?: unknown;
  observation_bundle_id?: unknown;
  groups?: unknown;
};
