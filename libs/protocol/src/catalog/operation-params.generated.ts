// Generated from the operation catalog by `npx palimpsest generate`. Do not edit by hand.
import type { OperationParamsPart1 } from './operation-params-1.generated';
import type { OperationParamsPart2 } from './operation-params-2.generated';

/** The arguments a caller sends, as the params schema describes them. */
export interface OperationParams extends OperationParamsPart1, OperationParamsPart2 {}
