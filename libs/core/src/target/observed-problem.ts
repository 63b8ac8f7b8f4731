import type { FailureReason, ValidationStage } from '../transaction/transaction.types';

/** A refusal of a submission's form (observation, bundle, strict mode), recorded as a rejected attempt with the seed's code. */
export interface ObservedProblem {
  reason: FailureReason;
  stage: ValidationStage;
  detail: string;
  diagnostic: Record<string, unknown>;
}

export function problem(reason: FailureReason, stage: ValidationStage, code: string, detail: string, extra: Record<string, unknown> = {}): ObservedProblem {
  return { reason, stage, detail, diagnostic: { code, ...extra } };
}
