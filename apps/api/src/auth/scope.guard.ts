import { Injectable, SetMetadata, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { Reflector } from '@nestjs/core';
import { gatewayError } from '../errors/api-error';
import { ApiRuntime } from '../api-runtime';
import type { RouteAccess } from '../routes/route-table';
import { scopeRefusal, type AuthenticatedRequest } from './token-verifier';

export const ROUTE_ACCESS = 'palimpsest:route-access';

/** Every route declares who may call it: a scope, or public. */
export const Access = (access: RouteAccess) => SetMetadata(ROUTE_ACCESS, access);

export type { AuthenticatedRequest } from './token-verifier';

/** Global guard: a route without a declared access fails closed. */
@Injectable()
export class ScopeGuard implements CanActivate {
  constructor(
    private readonly reflector: Reflector,
    private readonly runtime: ApiRuntime,
  ) {}

  async canActivate(context: ExecutionContext): Promise<boolean> {
    const access = this.reflector.get<RouteAccess | undefined>(ROUTE_ACCESS, context.getHandler());
    if (access === undefined) {
      throw gatewayError(500, 'internal', 'route_without_access', 'This route declares no access scope; refusing it.');
    }
    if (access === 'public' || !this.runtime.config.auth) return true;
    const req = context.switchToHttp().getRequest<AuthenticatedRequest>();
    const principal = await this.runtime.tokens.verify(req.headers.authorization);
    req.principal = principal;
    if (!principal.scopes.includes(access)) throw scopeRefusal(principal, access);
    return true;
  }
}
