import { parseProposal } from '../transaction/parse-proposal';
import type { ObservedProblem } from './observed-problem';
import { runSubmission, type SubmissionForm, type SubmissionOutcome } from './submission-steps';
import type { SubmitProposal } from './target.commands';
import type { ExistingTarget } from './target.state';

/** Strict observation mode: a submission not bound to an observation is refused as one missing its observation_id is. */
const UNOBSERVED_IN_STRICT_MODE: ObservedProblem = {
  reason: 'context_invalid',
  stage: 'PROTOCOL_VALIDATION',
  detail: 'Strict observation mode: unobserved writes are refused. Observe the scope you mean to change (palimpsest_observe_scope), then submit with palimpsest_submit_observed_operations.',
  diagnostic: { code: 'OBSERVATION_REQUIRED', mode: 'strict_observation' },
};

/** A plain submission (tx/1 edits, tx/2 operations, tx/3 replacement): recorded as submitted, under the runtime its parse names. */
const PLAIN: SubmissionForm<SubmitProposal> = {
  extraText: () => ({}),
  parse: (cmd) => parseProposal(cmd.protocol_version, cmd.proposal),
  storedRecord: (_cmd, record) => record,
  syntax: (cmd) => (cmd.strict_observation ? UNOBSERVED_IN_STRICT_MODE : null),
  runtime: (proposal) => proposal.runtime_version,
  observation: () => null,
};

export function decideSubmitProposal(cmd: SubmitProposal, state: ExistingTarget): SubmissionOutcome {
  return runSubmission(PLAIN, cmd, state);
}
