import type { AnswerNotes } from '../answer-notes';
import type { Refusal } from '../refusal';
import type { OperationName } from './catalog';
import type { OperationAdmitted } from './operation-admitted.generated';
import type { OperationAnswers } from './operation-answers.generated';
import type { OperationParams } from './operation-params.generated';
import type { OperationResults } from './operation-results.generated';

/** The arguments of operation N as a caller sends them. */
export type Params<N extends OperationName> = OperationParams[N];
/** The arguments of operation N as its handler receives them (after admission). */
export type Admitted<N extends OperationName> = OperationAdmitted[N];
/** Every status operation N answers with (its result schema). */
export type ResultStatus<N extends OperationName> = OperationResults[N]['status'];
/** What a success of operation N carries, field by field (ANSWER_SCHEMAS). */
export type Success<N extends OperationName> = OperationAnswers[N];
/**
 * Operation N's refusals: every status of its result schema its success does not answer with. Operation
 * by operation (distributive), so Refused<OperationName> is the union of each operation's refusals.
 */
export type Refused<N extends OperationName> = N extends OperationName ? Refusal<Exclude<ResultStatus<N>, Success<N>['status']>> : never;
/** The answer of operation N: its success, typed field by field (with what dispatch notes on it), or one of its refusals. */
export type Result<N extends OperationName> = (Success<N> & AnswerNotes) | Refused<N>;
