import { submissionCommand, type SubmissionFields } from './target.commands';

const fields: SubmissionFields = {
  now: '2026-12-01T00:00:00.000Z',
  attempt_id: '55555555-5555-4555-8555-555555555555',
  target_id: '11111111-1111-4111-8111-111111111111',
  protocol_version: 'patchdiff-tx/2',
  proposal: { intent: 'i', operations: [] },
  lookups: { keyed: null, parent: null },
};
const observed = { observation_id: 'o', found: null, reverified: false };
const batch = { bundle_known: false, found: {}, reverified: {} };

describe('submissionCommand', () => {
  it('builds the command of the form the handler looked up: batch, observed, else plain (strict when asked)', () => {
    expect(submissionCommand(fields, { batch })).toEqual({ ...fields, type: 'SubmitObservedBatch', batch });
    expect(submissionCommand(fields, { observed })).toEqual({ ...fields, type: 'SubmitObservedProposal', observed });
    expect(submissionCommand(fields, undefined)).toEqual({ ...fields, type: 'SubmitProposal' });
    expect(submissionCommand(fields, {}, true)).toEqual({ ...fields, type: 'SubmitProposal', strict_observation: true });
    // An observed form is never strict: strict mode refuses only unobserved writes.
    expect(submissionCommand(fields, { observed }, true)).toEqual({ ...fields, type: 'SubmitObservedProposal', observed });
  });
});
