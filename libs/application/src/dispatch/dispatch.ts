import { admit } from '@palimpsest/protocol/admission';
import { findOperation } from '@palimpsest/protocol/catalog/catalog';
import type { AppContext } from '../app-context';
import { OPERATION_HANDLERS } from './operation-handlers';

export interface DispatchOptions {
  /** Profile: a read-only session refuses every write operation. */
  readOnly?: boolean;
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
    return {
      status: 'invalid_argument',
      code: 'operation_not_permitted',
      tool: name,
      failure_detail: `${name} writes; this session runs the read-only profile.`,
    };
  }
  const refused = admit(spec, args ?? {});
  if (refused) return refused;
  const handler = OPERATION_HANDLERS[spec.name as keyof typeof OPERATION_HANDLERS];
  return handler(ctx, args as Record<string, unknown>, { profile: opts.readOnly ? 'read-only' : 'full' });
}
