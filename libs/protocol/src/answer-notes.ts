import type { NextAction } from '@palimpsest/core/errors/error-model';

/** What was cut from an answer to keep it within MAX_RESULT_BYTES: where, how much is returned, how much there was. */
export interface TruncatedField {
  path: string;
  /** Code points of a string, elements of an array. */
  returned: number;
  total: number;
}

/** What dispatch may add to any success as it leaves (result-budget.ts): what it cut, and the read that continues it. */
export type AnswerNotes = {
  result_truncated?: TruncatedField[];
  next_actions?: NextAction[];
};
