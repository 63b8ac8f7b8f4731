import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/plans: the dry run of a candidate proposal (stores nothing). */
@Controller()
export class PlansController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_edit_plan')
  plan(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_edit_plan', req, reply, body);
  }
}
