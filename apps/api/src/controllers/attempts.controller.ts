import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/attempts: the append-only attempt log (auditor). */
@Controller()
export class AttemptsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_get_attempt_log')
  list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_get_attempt_log', req, reply);
  }
}
