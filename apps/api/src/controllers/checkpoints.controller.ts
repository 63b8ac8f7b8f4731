import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/checkpoints: snapshot the target and rotate its editing cycle. */
@Controller()
export class CheckpointsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_save')
  save(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_save', req, reply, body);
  }
}
