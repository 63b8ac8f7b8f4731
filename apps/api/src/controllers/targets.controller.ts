import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets: create a target and read it (whole, exported, by slice, by lines, by occurrence). */
@Controller()
export class TargetsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_initialize_target')
  initialize(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_initialize_target', req, reply, body);
  }

  @OperationEndpoint('palimpsest_get_target')
  get(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_get_target', req, reply);
  }

  @OperationEndpoint('palimpsest_export_target')
  export(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_export_target', req, reply);
  }

  @OperationEndpoint('palimpsest_read_target')
  text(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_read_target', req, reply);
  }

  @OperationEndpoint('palimpsest_read_lines')
  lines(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_read_lines', req, reply);
  }

  @OperationEndpoint('palimpsest_find_occurrences')
  occurrences(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_find_occurrences', req, reply);
  }
}
