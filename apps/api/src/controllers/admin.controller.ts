import { Controller, Param, Res, UseGuards } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { decideApproval } from '@palimpsest/application/candidates/approvals/approvals.handler';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { resolveProfilePolicy, UnknownProfileError } from '@palimpsest/application/candidates/policy/policy-store';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { CORRELATION_ID_HEADER } from '@palimpsest/protocol/catalog/operations/audit.operations';
import { migrate } from '@palimpsest/store/migrate';
import { ApiRuntime } from '../api-runtime';
import { invalidArgumentError } from '../errors/api-error';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { envelopeStatus } from '../routes/http-outcome';
import { GatewayEndpoint } from '../routes/endpoint.decorators';
import { AdminGuard } from './admin-access';
import { AdminApprovalDecision, AdminDispatchRequest } from './admin.dto';
import { STRICT_DTO } from './replay.controller';

/**
 * /v1/admin: what a CLI command does with the store when a gateway holds the embedded one (see
 * admin-access.ts for who may call them). Each answers exactly what the command prints locally: the
 * operation's outcome as dispatchRequest() returned it, the migrations applied, the approval answer.
 */
@Controller()
@UseGuards(AdminGuard)
export class AdminController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('admin_dispatch')
  @ApiBody({ type: AdminDispatchRequest })
  @ApiResponse({ status: 200, description: 'The outcome, as `palimpsest call` prints it (a refusal too: the status field says which).' })
  async dispatch(@JsonBody(STRICT_DTO) body: AdminDispatchRequest, @Res() reply: FastifyReply) {
    const policy = body.profile === undefined ? undefined : profilePolicy(body.profile, this.runtime.ctx.candidates.policyFile);
    const release = await this.runtime.limiter.acquire();
    try {
      const correlationId = body.correlation_id ?? this.runtime.ctx.ids.next();
      reply.header(CORRELATION_ID_HEADER, correlationId);
      void reply.code(200).send(await dispatchRequest(this.runtime.ctx, body.operation, body.args, { readOnly: body.read_only === true, policy, correlationId }));
    } finally {
      release();
    }
  }

  @GatewayEndpoint('admin_migrate')
  @ApiResponse({ status: 200, description: '{status: "ok", applied: [names]}: usually none, the gateway migrated when it opened the store.' })
  async migrate(@Res() reply: FastifyReply) {
    const { applied } = await migrate(this.runtime.db);
    void reply.code(200).send({ status: 'ok', applied });
  }

  @GatewayEndpoint('admin_approval_decision')
  @ApiParam({ name: 'id', description: 'The approval_id.', schema: { type: 'string' } })
  @ApiBody({ type: AdminApprovalDecision })
  @ApiResponse({ status: 200, description: '{status: "ok", approval}' })
  async decide(@Param('id') id: string, @JsonBody(STRICT_DTO) body: AdminApprovalDecision, @Res() reply: FastifyReply) {
    const answer = await decideApproval(this.runtime.ctx, { approval_id: id, decision: body.decision, decided_by: body.decided_by, note: body.note ?? null });
    void reply.code(answer.status === 'ok' ? 200 : envelopeStatus(answer.error)).send(answer);
  }
}

/** A profile is named, never sent: a caller cannot invent a policy wider than the operator declared (shell checks). */
function profilePolicy(profile: string, policyFile: string | null): OwnerPolicy {
  try {
    return resolveProfilePolicy(profile, policyFile);
  } catch (error) {
    if (!(error instanceof UnknownProfileError)) throw error;
    throw invalidArgumentError('admin_dispatch', 'unknown_profile', error.message, { argument: 'profile' });
  }
}
