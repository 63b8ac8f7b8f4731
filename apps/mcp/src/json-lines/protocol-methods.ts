import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { answerProtocolMethod, type ProtocolSession } from '@palimpsest/protocol/protocol-methods/protocol-answers';
import { findProtocolMethod } from '@palimpsest/protocol/protocol-methods/protocol-methods';
import { catalogAvailability } from './catalog-methods';
import type { JsonLinesSessionOptions } from './json-lines-session';

type Methods = Pick<JsonLinesSessionOptions, 'availability' | 'call'>;

/**
 * The protocol's session for a profile: read_only when the policy is, or when nothing it serves writes
 * (a write with a read part, such as observe_scope, counts as a write when the profile serves it whole).
 */
export function protocolSession(policy: OwnerPolicy): ProtocolSession {
  const availability = catalogAvailability(policy);
  const serves = (operation: string) => availability(operation) === 'available';
  const writes = policy.mode !== 'read_only' && CATALOG.some((op) => !op.readOnly && serves(op.name));
  return { profile: policy.name ?? policy.mode, capability: writes ? 'read_write' : 'read_only', serves };
}

/**
 * The JSON-lines methods of a session: the protocol's own (protocol/capabilities, protocol/schemas,
 * protocol/instructions, protocol/client, query/catalog), served by every profile and answered here
 * from the catalog, and the catalog operations the policy allows, passed to `call`.
 */
export function withProtocolMethods(policy: OwnerPolicy, call: JsonLinesSessionOptions['call']): Methods {
  const session = protocolSession(policy);
  const operations = catalogAvailability(policy);
  return {
    availability: (method) => (findProtocolMethod(method) ? 'available' : operations(method)),
    call: async (method, params) => answerProtocolMethod(method, params, session) ?? call(method, params),
  };
}
