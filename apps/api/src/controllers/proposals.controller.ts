import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/edits|operations|replacement|previews: guarded transactions, and their dry run. */
@Controller()
export class ProposalsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_submit_edits')
  edits(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_submit_edits', req, reply, body);
  }

  @OperationEndpoint('palimpsest_submit_operations')
  operations(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_submit_operations', req, reply, body);
  }

  @OperationEndpoint('palimpsest_submit_replacement')
  replacement(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_submit_replacement', req, reply, body);
  }

  @OperationEndpoint('palimpsest_preview')
  preview(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_preview', req, reply, body);
  }
}
