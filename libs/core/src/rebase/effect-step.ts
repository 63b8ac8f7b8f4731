import type { TextEffect } from '../transaction/text-effect';

/**
 * One accepted version's effects, as the event recorded them: code points of the text before it
 * (version `after_version - 1`), ascending and disjoint. What every history answer walks through.
 */
export interface EffectStep {
  attempt_id: string;
  after_version: number;
  effects: readonly TextEffect[];
}

/** A code-point range [start, end) of one version's text. */
export interface CodePointRange {
  start: number;
  end: number;
}

/** Who touched a range: the attempt and the version it made. */
export interface Toucher {
  attempt_id: string;
  version: number;
}
