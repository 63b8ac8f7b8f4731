import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { decide, evolve } from '@palimpsest/core/candidate/candidate.decider';
import type { CandidateCommand } from '@palimpsest/core/candidate/candidate.commands';
import type { CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import { CANDIDATE_EVENT_TYPES } from '@palimpsest/core/candidate/candidate.events';
import { initialCandidateState } from '@palimpsest/core/candidate/candidate.state';
import {
  AFTER_EXPIRY, APPROVAL, C, LATER, apply, decideApproval, discard, extend, propose, recordChecks,
} from '@palimpsest/core/candidate/test-support/candidate-fixtures';
import { EVENT_SCHEMAS } from './event-schemas';

function run(commands: CandidateCommand[]): CandidateEvent[] {
  const events: CandidateEvent[] = [];
  let state = initialCandidateState;
  for (const cmd of commands) {
    const d = decide(cmd, state);
    if (d.kind === 'replayed') continue;
    events.push(...d.events);
    state = d.events.reduce(evolve, state);
  }
  return events;
}

describe('candidate event schemas', () => {
  it('publish one schema per candidate event type', () => {
    for (const type of CANDIDATE_EVENT_TYPES) expect(EVENT_SCHEMAS[type]).toMatchObject({ title: type });
  });

  it('every decided candidate event validates against its published schema', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const needs = { required: true, policy: 'reviewed', approval_id: APPROVAL };
    const events = [
      ...run([propose(), extend(), recordChecks(true, { candidate_version: 2 }), apply({ expected_candidate_version: 2, approval: needs }), decideApproval('grant'), apply({ expected_candidate_version: 2, approval: needs })]),
      ...run([propose(), apply({ approval: needs }), decideApproval('decline'), discard()]),
      ...run([propose(), discard({ now: AFTER_EXPIRY })]),
      ...run([propose(), apply({ approval: needs }), { type: 'WithdrawApproval', now: LATER, candidate_id: C, approval_id: APPROVAL, reason: 'cancelled' }]),
    ];
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(CANDIDATE_EVENT_TYPES));
    for (const e of events) {
      const validate = ajv.compile(EVENT_SCHEMAS[e.type]);
      expect({ type: e.type, ok: validate(e.data), errors: validate.errors ?? null }).toEqual({ type: e.type, ok: true, errors: null });
    }
  });
});
