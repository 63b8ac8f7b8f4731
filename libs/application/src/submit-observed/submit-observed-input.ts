import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import type { SubmitProposalInput } from '../submit-proposal/submit-proposal.handler';

/** The submission tools' common arguments and either form's own: one observation and its operations, or a bundle and its groups. */
export type SubmitObservedInput = Omit<SubmitProposalInput, 'protocol_version' | 'proposal' | 'observed'> & {
  observation_id?: unknown;
  /** Single form: the observed scope's code node must still have this version (palimpsest_node_get's). */
  expected_node_version?: unknown;
  intent?: unknown;
  operations?: unknown;
  observation_bundle_id?: unknown;
  groups?: unknown;
};

/** What either form hands submitProposal besides its proposal and lookup: a tx/2 submission's envelope. */
export function observedEnvelope(input: SubmitObservedInput): Omit<SubmitProposalInput, 'proposal' | 'observed'> {
  return {
    target_file_id: input.target_file_id,
    protocol_version: PROTOCOL.tx2,
    expected_target_version: input.expected_target_version,
    expected_current_hash: input.expected_current_hash,
    client_request_id: input.client_request_id,
    parent_attempt_id: input.parent_attempt_id,
    attempt: input.attempt,
    source: input.source,
    include_correlation_id: input.include_correlation_id,
    session_id: input.session_id,
  };
}
