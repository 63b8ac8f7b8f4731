import { Injectable, type CanActivate, type ExecutionContext } from '@nestjs/common';
import { ApiRuntime } from '../api-runtime';
import type { AuthenticatedRequest } from '../auth/scope.guard';
import { isUnrestricted } from '../auth/unrestricted';
import { gatewayError } from '../errors/api-error';
import { CALLER_SCOPES } from '../routes/route-table';

/**
 * The /v1/admin routes do what a CLI command does with the store in hand (create tokens, run any
 * operation under a profile, migrate, decide approvals as a named person). Beyond their declared
 * `operator` scope they take an unrestricted token: every scope and no owner policy — such as the
 * credential `palimpsest api` publishes beside an embedded data directory, or the local token. Such a
 * token can already do everything through the other routes, so these grant nothing it lacks.
 */
function assertAdmin(runtime: ApiRuntime, req: AuthenticatedRequest): void {
  if (!runtime.config.auth) return; // --no-auth: loopback development, every route is open
  const principal = req.principal;
  if (principal && isUnrestricted(principal)) return;
  throw gatewayError(
    403,
    'permission_denied',
    'admin_token_required',
    `The /v1/admin routes need a token with every scope (${CALLER_SCOPES.join(', ')}) and no owner policy; the token "${principal?.name ?? ''}" is narrower.`,
  );
}

/** Runs after the global ScopeGuard (which sets the principal) and before any body is read. */
@Injectable()
export class AdminGuard implements CanActivate {
  constructor(private readonly runtime: ApiRuntime) {}

  canActivate(context: ExecutionContext): boolean {
    assertAdmin(this.runtime, context.switchToHttp().getRequest<AuthenticatedRequest>());
    return true;
  }
}
