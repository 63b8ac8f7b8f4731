import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/capabilities: the service manifest. */
@Controller()
export class CapabilitiesController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_capabilities')
  get(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_capabilities', req, reply);
  }
}
