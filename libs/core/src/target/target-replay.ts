import { ReplayCheck } from './replay-check';
import { TargetFold } from './target-fold';
import { upcastTargetEvent } from './target.events';
import { textOf, type TargetState } from './target.state';

/** A stored event as a replay reads it: its type, the schema it was written in, its data as stored. */
export interface StoredTargetEvent {
  type: string;
  schemaVersion: number;
  data: unknown;
}

/**
 * The replay verifier of one target's stream, fed in version order: each event is folded from its
 * effects (TargetFold checks every after_hash) after its acceptance's recorded engine re-ran on the text it
 * applied to and reproduced those effects. `step` throws ReplayDivergence at the first event that does not.
 * The live store's replay and the offline bundle verifier both run this.
 */
export class TargetReplay {
  private readonly fold = new TargetFold();
  private readonly checks = new ReplayCheck();
  accepted = 0;

  get state(): TargetState {
    return this.fold.state;
  }

  step(stored: StoredTargetEvent): void {
    const before = this.fold.state;
    let rerun = true;
    const event = upcastTargetEvent(stored.type, stored.schemaVersion, stored.data, () => ((rerun = false), textOf(before)));
    // A version-1 acceptance's effects were just derived by running its engine: that run was the check.
    this.checks.check(event, before, rerun, this.fold.buffer);
    this.fold.apply(event);
    if (event.type === 'ProposalAccepted') this.accepted++;
  }
}
