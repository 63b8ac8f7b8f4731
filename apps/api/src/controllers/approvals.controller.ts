import { Controller, Param, Query, Req, Res } from '@nestjs/common';
import { ApiBody, ApiParam, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { decideApproval, listApprovals } from '@palimpsest/application/candidates/approvals/approvals.handler';
import { listCommandApprovals } from '@palimpsest/application/candidates/approvals/command-approvals';
import { ApiRuntime } from '../api-runtime';
import { withTraceId } from '../errors/api-error';
import { JsonBody } from '../lifecycle/json-body.pipe';
import type { AuthenticatedRequest } from '../auth/scope.guard';
import { ApprovalDecision, ApprovalsQuery, CommandApprovalsQuery } from '../operations/operator.dto';
import { envelopeStatus } from '../routes/http-outcome';
import { GatewayEndpoint } from '../routes/endpoint.decorators';
import { STRICT_DTO } from './replay.controller';

/**
 * /v1/approvals (operator): the person's side of owner policies with approve, for applies and command runs alike. On the embedded store the
 * CLI cannot open the store while the gateway holds it, so decisions are made here.
 */
@Controller()
export class ApprovalsController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('approvals_list')
  @ApiResponse({ status: 200, description: '{status: "ok", approvals: [...]}' })
  async list(@Query(STRICT_DTO) query: ApprovalsQuery, @Res() reply: FastifyReply) {
    const approvals = await listApprovals(this.runtime.db, { status: query.status ?? 'pending', limit: query.limit ?? 50 });
    void reply.code(200).send({ status: 'ok', approvals });
  }

  /** Command runs (run_command / start_command under approve) waiting for a person; approve / decline below decide them too. */
  @GatewayEndpoint('approvals_commands')
  @ApiResponse({ status: 200, description: '{status: "ok", approvals: [...]}' })
  async commands(@Query(STRICT_DTO) query: CommandApprovalsQuery, @Res() reply: FastifyReply) {
    const approvals = await listCommandApprovals(this.runtime.db, { status: query.status ?? 'pending', limit: query.limit ?? 50 });
    void reply.code(200).send({ status: 'ok', approvals });
  }

  @GatewayEndpoint('approvals_approve')
  @ApiParam({ name: 'id', description: 'The approval_id.', schema: { type: 'string' } })
  @ApiBody({ type: ApprovalDecision, required: false })
  @ApiResponse({ status: 200, description: '{status: "ok", approval}' })
  approve(@Param('id') id: string, @JsonBody(STRICT_DTO) body: ApprovalDecision, @Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    return this.decide(id, 'grant', body, req, reply);
  }

  @GatewayEndpoint('approvals_decline')
  @ApiParam({ name: 'id', description: 'The approval_id.', schema: { type: 'string' } })
  @ApiBody({ type: ApprovalDecision, required: false })
  @ApiResponse({ status: 200, description: '{status: "ok", approval}' })
  decline(@Param('id') id: string, @JsonBody(STRICT_DTO) body: ApprovalDecision, @Req() req: AuthenticatedRequest, @Res() reply: FastifyReply) {
    return this.decide(id, 'decline', body, req, reply);
  }

  private async decide(id: string, decision: 'grant' | 'decline', body: ApprovalDecision, req: AuthenticatedRequest, reply: FastifyReply) {
    const decidedBy = req.principal ? `token:${req.principal.name}` : 'api:no-auth';
    const answer = await decideApproval(this.runtime.ctx, { approval_id: id, decision, decided_by: decidedBy, note: body.note ?? null });
    if (answer.status === 'ok') return void reply.code(200).send(answer);
    void reply.code(envelopeStatus(answer.error)).send(withTraceId(answer, req.id));
  }
}
