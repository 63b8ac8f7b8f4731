import type { TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import { CHUNK_UNITS, applyRewrite, planRewrite, type ChunkRewrite, type UnchangedEnds } from './chunk-layout';

export interface ContentChange {
  rewrite: ChunkRewrite | null;
  /** The chunk layout after the event. */
  chunks: string[];
}

/** Only initialization and acceptance change the text; everything else keeps the chunks as they are. */
export function contentChangeFor(
  event: TargetEvent,
  previous: readonly string[],
  stateAfter: TargetState,
  hint: UnchangedEnds | null = null,
): ContentChange {
  if ((event.type !== 'TargetInitialized' && event.type !== 'ProposalAccepted') || !stateAfter.exists) {
    return { rewrite: null, chunks: [...previous] };
  }
  const rewrite = planRewrite(previous, stateAfter.content, CHUNK_UNITS, event.type === 'ProposalAccepted' ? hint : null);
  return { rewrite, chunks: applyRewrite(previous, rewrite) };
}
