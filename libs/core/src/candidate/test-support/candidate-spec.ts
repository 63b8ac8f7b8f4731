import { decide, evolve } from '../candidate.decider';
import type { CandidateCommand } from '../candidate.commands';
import type { CandidateDecision } from '../candidate-decision';
import type { CandidateEvent } from '../candidate.events';
import type { ErrorCode } from '../candidate-refusal';
import { initialCandidateState, type CandidateState } from '../candidate.state';

/** given(history).when(command).then(events) / .thenRefuses(code, reason) for the candidate decider. */
export function given(history: CandidateEvent[]) {
  const state: CandidateState = history.reduce(evolve, initialCandidateState);
  return {
    state,
    when(command: CandidateCommand) {
      const decision: CandidateDecision = decide(command, state);
      const recorded = decision.kind === 'replayed' ? [] : decision.events;
      return {
        decision,
        /** The events recorded; the callback may assert on them or return the exact list expected. */
        then(expected: (events: CandidateEvent[]) => void | CandidateEvent[]) {
          expect(decision.kind === 'accepted' || decision.kind === 'awaiting_approval').toBe(true);
          const result = expected(recorded);
          if (Array.isArray(result)) expect(recorded).toEqual(result);
          return recorded;
        },
        thenRefuses(code: ErrorCode, reason: string, recordedTypes: CandidateEvent['type'][] = []) {
          expect(decision.kind).toBe('refused');
          if (decision.kind !== 'refused') throw new Error('not refused');
          expect({ code: decision.refusal.code, reason: decision.refusal.reason }).toEqual({ code, reason });
          expect(recorded.map((e) => e.type)).toEqual(recordedTypes);
          return decision.refusal;
        },
        thenReplays() {
          expect(decision.kind).toBe('replayed');
          return decision;
        },
        /** The state after the recorded events. */
        next(): CandidateState {
          return recorded.reduce(evolve, state);
        },
      };
    },
  };
}
