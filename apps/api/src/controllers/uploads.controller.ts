import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/uploads: create a target from uploaded text (content required). */
@Controller()
export class UploadsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_handle_upload')
  upload(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_handle_upload', req, reply, body);
  }
}
