import { admit } from '@palimpsest/protocol/admission';
import { findOperation } from '@palimpsest/protocol/catalog/catalog';
import { READ_ONLY, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../app-context';
import { policyGate } from '../candidates/policy/policy-gate';
import { admissionEnvelope, isEnvelopeOperation } from '../candidates/shared/envelope';
import { OPERATION_HANDLERS } from './operation-handlers';

export interface DispatchOptions {
  /** Profile: a read-only session refuses every write operation. */
  readOnly?: boolean;
  /** Owner policy of the caller (MCP profile, API token): hides and refuses tools, gates checks, asks for approvals. */
  policy?: OwnerPolicy;
}

/** Catalog lookup → admission → handler. The one path every transport uses. */
export async function dispatch(
  ctx: AppContext,
  name: string,
  args: unknown,
  opts: DispatchOptions = {},
): Promise<Record<string, unknown>> {
  const spec = findOperation(name);
  if (!spec) {
    return { status: 'invalid_argument', code: 'unknown_operation', failure_detail: `No operation named ${name}.` };
  }
  if (opts.readOnly && !spec.readOnly) {
    if (isEnvelopeOperation(spec.name)) return policyGate(READ_ONLY, spec) as Record<string, unknown>;
    return {
      status: 'invalid_argument',
      code: 'operation_not_permitted',
      tool: name,
      failure_detail: `${name} writes; this session runs the read-only profile.`,
    };
  }
  const forbidden = opts.policy ? policyGate(opts.policy, spec) : null;
  if (forbidden) return forbidden;
  const refused = admit(spec, args ?? {});
  if (refused) return isEnvelopeOperation(spec.name) ? admissionEnvelope(refused) : refused;
  const handler = OPERATION_HANDLERS[spec.name as keyof typeof OPERATION_HANDLERS];
  return handler(ctx, args as Record<string, unknown>, { profile: opts.readOnly ? 'read-only' : 'full', policy: opts.policy ?? null });
}
