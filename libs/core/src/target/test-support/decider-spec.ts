import { decide, evolve } from '../target.decider';
import type { TargetCommand } from '../target.commands';
import type { TargetEvent } from '../target.events';
import { initialTargetState, type TargetState } from '../target.state';

/** Emmett-style decider specs: given(history).when(command).then(expected events). */
export function given(history: TargetEvent[]) {
  const state: TargetState = history.reduce(evolve, initialTargetState);
  return {
    state,
    when(command: TargetCommand) {
      const run = () => decide(command, state);
      return {
        then(expected: (events: TargetEvent[]) => void | TargetEvent[]) {
          const events = run();
          const result = expected(events);
          if (Array.isArray(result)) expect(events).toEqual(result);
          return events;
        },
        thenThrows(errorType: new (...args: never[]) => Error, match?: (err: any) => void) {
          let caught: unknown;
          try {
            run();
          } catch (err) {
            caught = err;
          }
          expect(caught).toBeInstanceOf(errorType);
          match?.(caught);
        },
      };
    },
  };
}
