import { deciderSpec } from '../../test-support/decider-spec';
import type { TargetRefusal } from '../target-decision';
import { decide, evolve } from '../target.decider';
import type { TargetEvent } from '../target.events';
import { initialTargetState } from '../target.state';

const spec = deciderSpec({
  decide,
  evolve,
  initialState: initialTargetState,
  eventsOf: (d) => (d.kind === 'decided' ? d.events : []),
  refusalOf: (d) => (d.kind === 'refused' ? d.refusal : null),
  replayed: (d) => d.kind === 'decided' && d.recoveredAttemptId !== null,
});

/** given(history).when(command).then(events) / .thenRefuses(kind, match) for the target decider. */
export function given(history: TargetEvent[]) {
  const g = spec(history);
  return {
    ...g,
    when(command: Parameters<typeof decide>[0]) {
      const w = g.when(command);
      return {
        ...w,
        thenRefuses<K extends TargetRefusal['kind']>(kind: K, match?: (refusal: Extract<TargetRefusal, { kind: K }>) => void): Extract<TargetRefusal, { kind: K }> {
          const { refusal, recorded } = w.thenRefuses();
          expect({ kind: refusal.kind, recorded }).toEqual({ kind, recorded: [] });
          if (refusal.kind !== kind) throw new Error(`refused as ${refusal.kind}`);
          const mine = refusal as Extract<TargetRefusal, { kind: K }>;
          match?.(mine);
          return mine;
        },
      };
    },
  };
}

/** The events of a decision that must have gone through (fixtures built from decisions). */
export function eventsOf(decision: ReturnType<typeof decide>): TargetEvent[] {
  if (decision.kind !== 'decided') throw new Error(`refused: ${decision.refusal.kind}`);
  return decision.events;
}
