import { Controller, Param, Query, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { resolveTokenPolicy } from '@palimpsest/application/candidates/policy/policy-store';
import { ApiRuntime } from '../api-runtime';
import { createToken, listTokens, parseScopes, revokeToken } from '../auth/api-tokens';
import { gatewayError, invalidArgumentError } from '../errors/api-error';
import { GATEWAY_CREDENTIAL_NAME } from '../lifecycle/gateway-address';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { GatewayEndpoint } from '../routes/endpoint.decorators';
import { AdminGuard } from './admin-access';
import { AdminTokenRequest, AdminTokensQuery } from './admin.dto';
import { STRICT_DTO } from './replay.controller';

/** /v1/admin/tokens: `palimpsest tokens create|list|revoke` while a gateway holds the embedded store. */
@Controller()
@UseGuards(AdminGuard)
export class AdminTokensController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('admin_tokens_list')
  @ApiResponse({ status: 200, description: '{status: "ok", tokens: [...]} (never their secrets)' })
  async list(@Query(STRICT_DTO) query: AdminTokensQuery, @Res() reply: FastifyReply) {
    void reply.code(200).send({ status: 'ok', tokens: await listTokens(this.runtime.db, { includeRevoked: query.all === true }) });
  }

  @GatewayEndpoint('admin_tokens_create')
  @ApiBody({ type: AdminTokenRequest })
  @ApiResponse({ status: 201, description: '{status: "ok", token, record}: the secret, shown once.' })
  async create(@JsonBody(STRICT_DTO) body: AdminTokenRequest, @Res() reply: FastifyReply) {
    const scopes = edge('scopes', () => parseScopes(body.scopes.join(',')));
    if (body.name === GATEWAY_CREDENTIAL_NAME) throw invalidArgumentError('admin_tokens_create', 'reserved_name', `"${body.name}" is the gateway's own credential.`, { argument: 'name' });
    const policy = body.policy ?? null;
    const checked = resolveTokenPolicy(policy, body.name);
    if (!checked.ok) throw invalidArgumentError('admin_tokens_create', 'invalid_policy', `policy: ${checked.problems.join('; ')}`);
    const { token, record } = await createToken(this.runtime.db, { name: body.name, scopes, policy });
    void reply.code(201).send({ status: 'ok', token, record });
  }

  @GatewayEndpoint('admin_tokens_revoke')
  @ApiParam({ name: 'id', description: 'The token_id.', schema: { type: 'string' } })
  @ApiResponse({ status: 200, description: '{status: "ok", token}: revoked, and forgotten by this gateway at once.' })
  async revoke(@Param('id') id: string, @Res() reply: FastifyReply) {
    const revoked = await revokeToken(this.runtime.db, id);
    if (!revoked) throw gatewayError(404, 'not_found', 'token_unknown', `No active token with id ${id}.`);
    void reply.code(200).send({ status: 'ok', token: revoked });
  }
}

function edge<T>(argument: string, read: () => T): T {
  try {
    return read();
  } catch (err) {
    throw invalidArgumentError('admin_tokens_create', `invalid_${argument}`, `${argument}: ${(err as Error).message}`, { argument });
  }
}
