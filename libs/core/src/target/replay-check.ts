import type { ChunkedText } from '../text/chunked-text';
import { verifyAcceptance, verifyAcceptanceOn } from './acceptance-replay';
import { ObservedReplayEvidence } from './observed-replay';
import type { TargetEvent } from './target.events';
import { textOf, type TargetState } from './target.state';

/**
 * What replay checks of an event before folding it, beyond what the fold checks (effects reaching
 * after_hash): the observed evidence of the stream, and for an acceptance its recorded engine re-run on
 * the preimage, reproducing the recorded effects and after_hash. Throws ReplayDivergence.
 */
export class ReplayCheck {
  private readonly observed = new ObservedReplayEvidence();

  /**
   * `rerun: false` when the engine already ran on this acceptance (a version-1 event's upcast); `chunks`:
   * the preimage as a fold holds it, so the engine re-runs on windows where it can (left as it was).
   */
  check(event: TargetEvent, before: TargetState, rerun = true, chunks?: ChunkedText): void {
    this.observed.check(event, before);
    if (event.type !== 'ProposalAccepted' || !rerun) return;
    if (chunks) verifyAcceptanceOn(chunks, event.data);
    else verifyAcceptance(textOf(before), event.data);
  }
}
