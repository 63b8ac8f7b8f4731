/**
 * Emmett-style decider specs for every aggregate: given(history).when(command).then(events), or
 * .thenRefuses() / .thenReplays(). Each aggregate says how to read its decision union: the events it
 * records (a refusal may still record some, as a candidate's expiry found on the way), its refusal
 * (a value, never thrown), and whether it replayed an earlier request (recording nothing).
 */
export interface Decider<C, E, S, D, R> {
  decide(command: C, state: S): D;
  evolve(state: S, event: E): S;
  initialState: S;
  eventsOf(decision: D): E[];
  refusalOf(decision: D): R | null;
  replayed(decision: D): boolean;
}

export function deciderSpec<C, E, S, D, R>(decider: Decider<C, E, S, D, R>) {
  return function given(history: E[]) {
    const state = history.reduce(decider.evolve, decider.initialState);
    return {
      state,
      when(command: C) {
        const decision = decider.decide(command, state);
        const refusal = decider.refusalOf(decision);
        const replayed = decider.replayed(decision);
        const recorded = replayed ? [] : decider.eventsOf(decision);
        return {
          decision,
          /** The events of a decision that went through; the callback asserts on them or returns the exact list. */
          then(expected: (events: E[]) => void | E[]): E[] {
            expect({ refusal, replayed }).toEqual({ refusal: null, replayed: false });
            const result = expected(recorded);
            if (Array.isArray(result)) expect(recorded).toEqual(result);
            return recorded;
          },
          /** The refusal and what it still recorded. */
          thenRefuses(): { refusal: R; recorded: E[] } {
            expect(refusal).not.toBeNull();
            if (refusal === null) throw new Error('not refused');
            return { refusal, recorded };
          },
          thenReplays(): D {
            expect(replayed).toBe(true);
            return decision;
          },
          /** The state after the recorded events. */
          next(): S {
            return recorded.reduce(decider.evolve, state);
          },
        };
      },
    };
  };
}
