import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { Admitted, Result } from '@palimpsest/protocol/catalog/operation-types';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../app-context';

export interface HandlerSession {
  profile: 'full' | 'read-only';
  /** The caller's owner policy (MCP profile or API token), when one is in force. */
  policy?: OwnerPolicy | null;
}

/** Operation N's handler: its admitted arguments in, its result out. */
export type OperationHandler<N extends OperationName> = (ctx: AppContext, args: Admitted<N>, session: HandlerSession) => Promise<Result<N>>;
