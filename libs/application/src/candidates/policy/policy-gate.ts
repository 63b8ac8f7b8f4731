import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { operationRefusal } from '@palimpsest/core/policy/policy-decisions';
import { servedReadOnly, type OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import type { Refusal } from '@palimpsest/protocol/refusal';
import { isEnvelopeOperation, permissionDenied, type EnvelopeAnswer } from '../shared/envelope';

/**
 * The dispatch-time gate: an operation the caller's policy hides or forbids is refused before
 * admission — in seed 000's envelope for candidate operations, as operation_not_permitted elsewhere.
 */
export function policyGate(policy: OwnerPolicy, spec: OperationSpec): EnvelopeAnswer | Refusal<'invalid_argument'> | null {
  const refused = operationRefusal(policy, { name: spec.name, readOnly: servedReadOnly(spec) });
  if (!refused) return null;
  if (isEnvelopeOperation(spec.name)) {
    return permissionDenied('policy', `${refused.message} This is an answer: do not route around it.`, { answer: 'FORBIDDEN', policy: policy.name, rule: refused.reason });
  }
  return { status: 'invalid_argument', code: 'operation_not_permitted', answer: 'FORBIDDEN', tool: spec.name, failure_detail: `${refused.message} This is an answer: do not route around it.`, policy: policy.name };
}
