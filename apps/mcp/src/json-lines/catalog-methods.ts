import { operationRefusal } from '@palimpsest/core/policy/policy-decisions';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { findOperation } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly } from '@palimpsest/protocol/catalog/operation-spec';
import type { MethodAvailability } from './json-lines-session';
import { operationOfMethod } from '@palimpsest/protocol/protocol-methods/workspace-methods';

/**
 * Method names are the catalog's operation names, nothing else. The session's owner policy (a built-in
 * profile — full, read-only — or one from PALIMPSEST_POLICY_FILE) decides which of them are served.
 */
export function catalogAvailability(policy: OwnerPolicy): (method: string) => MethodAvailability {
  return (method) => {
    const op = findOperation(operationOfMethod(method));
    if (op === undefined) return 'unknown';
    const refused = operationRefusal(policy, { name: op.name, readOnly: servedReadOnly(op) });
    if (!refused) return 'available';
    return refused.reason === 'read_only' ? 'read_only_profile' : { not_permitted: refused.message };
  };
}
