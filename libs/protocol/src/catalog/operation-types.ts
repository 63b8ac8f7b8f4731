import type { OperationName } from './catalog';
import type { OperationAdmitted } from './operation-admitted.generated';
import type { OperationParams } from './operation-params.generated';
import type { OperationResults } from './operation-results.generated';

/** The arguments of operation N as a caller sends them. */
export type Params<N extends OperationName> = OperationParams[N];
/** The arguments of operation N as its handler receives them (after admission). */
export type Admitted<N extends OperationName> = OperationAdmitted[N];
/** The answer of operation N. */
export type Result<N extends OperationName> = OperationResults[N];
