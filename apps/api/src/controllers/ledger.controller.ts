import { Controller, Req, Res } from '@nestjs/common';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/ledger: accepted changes (auditor). */
@Controller()
export class LedgerController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_get_manifest_ledger')
  list(@Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_get_manifest_ledger', req, reply);
  }
}
