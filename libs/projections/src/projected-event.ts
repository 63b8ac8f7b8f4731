import type { TargetEvent } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import type { ChunkRewrite } from './content/chunk-layout';

/** An event as committed, with its place in the log and the target state right after it. */
export interface ProjectedEvent {
  event: TargetEvent;
  /** Null when the projection rides in the append statement and reads the position it inserts. */
  position: number | null;
  streamVersion: number;
  recordedAt: string;
  stateAfter: TargetState;
  /** How the stored chunks change (null: the text did not change). */
  contentRewrite: ChunkRewrite | null;
}
