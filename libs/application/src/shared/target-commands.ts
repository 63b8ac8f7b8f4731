import type { SubmitProposal } from '@palimpsest/core/target/target.commands';

/**
 * Where the use cases build the target's submission commands: one factory, so that a change of the
 * command's shape (plain, observed and observed-batch submissions as commands of their own) is made here
 * and not at every caller. Each caller says what it submits; the command type is named only here.
 */
export type SubmissionFields = Omit<SubmitProposal, 'type'>;

export function submissionCommand(fields: SubmissionFields): SubmitProposal {
  return { type: 'SubmitProposal', ...fields };
}
