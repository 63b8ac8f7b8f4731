import type { SourceLineEndings } from '../text/canonical-text';

/** The decider's view of one target: exactly the inline target row. */
export interface ExistingTarget {
  exists: true;
  target_id: string;
  filename: string;
  content_type: string;
  project_id: string | null;
  content: string;
  version: number;
  current_hash: string;
  active_editing_cycle_id: string;
  source_line_endings: SourceLineEndings | null;
}

export type TargetState = { exists: false } | ExistingTarget;

export const initialTargetState: TargetState = { exists: false };

/** The text a state holds ('' before the target exists): the preimage a version-1 acceptance's upcast runs on. */
export function textOf(state: TargetState): string {
  return state.exists ? state.content : '';
}
