import { deciderSpec } from '../../test-support/decider-spec';
import { decide, evolve } from '../candidate.decider';
import type { CandidateCommand } from '../candidate.commands';
import type { CandidateEvent } from '../candidate.events';
import type { ErrorCode } from '../../errors/error-model';
import { initialCandidateState } from '../candidate.state';

const spec = deciderSpec({
  decide,
  evolve,
  initialState: initialCandidateState,
  eventsOf: (d) => (d.kind === 'replayed' ? [] : d.events),
  refusalOf: (d) => (d.kind === 'refused' ? d.refusal : null),
  replayed: (d) => d.kind === 'replayed',
});

/** given(history).when(command).then(events) / .thenRefuses(code, reason) for the candidate decider. */
export function given(history: CandidateEvent[]) {
  const g = spec(history);
  return {
    ...g,
    when(command: CandidateCommand) {
      const w = g.when(command);
      return {
        ...w,
        thenRefuses(code: ErrorCode, reason: string, recordedTypes: CandidateEvent['type'][] = []) {
          const { refusal, recorded } = w.thenRefuses();
          expect({ code: refusal.code, reason: refusal.reason }).toEqual({ code, reason });
          expect(recorded.map((e) => e.type)).toEqual(recordedTypes);
          return refusal;
        },
      };
    },
  };
}
