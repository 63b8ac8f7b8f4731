import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/candidates: propose a change over targets, inspect it, check it, apply or discard it. */
@Controller()
export class CandidatesController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_change_propose')
  propose(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_change_propose', req, reply, body);
  }

  @OperationEndpoint('palimpsest_change_inspect')
  inspect(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_change_inspect', req, reply);
  }

  @OperationEndpoint('palimpsest_check_run')
  checks(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_check_run', req, reply, body);
  }

  @OperationEndpoint('palimpsest_change_apply')
  apply(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_change_apply', req, reply, body);
  }

  @OperationEndpoint('palimpsest_change_discard')
  discard(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_change_discard', req, reply, body);
  }
}
