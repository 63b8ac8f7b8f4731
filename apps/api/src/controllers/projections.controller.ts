import { Controller, Res } from '@nestjs/common';
import { ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { ApiRuntime } from '../api-runtime';
import { GatewayEndpoint } from '../routes/endpoint.decorators';

/** /v1/projections/rebuild (operator): readers and writers wait on its table locks while it runs. */
@Controller()
export class ProjectionsController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('projections_rebuild')
  @ApiResponse({ status: 200, description: 'The rebuild report: status ok when the rebuilt models equal what they replaced, else failed.' })
  async rebuild(@Res() reply: FastifyReply) {
    const release = await this.runtime.limiter.acquire();
    try {
      const report = await rebuildProjections(this.runtime.db);
      void reply.code(200).send({ status: report.equal ? 'ok' : 'failed', ...report });
    } finally {
      release();
    }
  }
}
