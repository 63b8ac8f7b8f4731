import { Controller, Res } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import { RebuildBusyError, rebuildOnline, UnknownProjectionError } from '@palimpsest/projections/rebuild/online/online-rebuild';
import { ApiRuntime } from '../api-runtime';
import { gatewayError } from '../errors/api-error';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OnlineRebuildRequest } from '../operations/operator.dto';
import { GatewayEndpoint } from '../routes/endpoint.decorators';
import { STRICT_DTO } from './replay.controller';

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

  /** /v1/projections/rebuild-online (operator): the service goes on; only the switch holds the tables, briefly. */
  @GatewayEndpoint('projections_rebuild_online')
  @ApiBody({ type: OnlineRebuildRequest, required: false })
  @ApiResponse({ status: 200, description: 'One report per model rebuilt: status ok when every live model equalled its rebuild (each is replaced either way), else failed.' })
  async rebuildOnline(@JsonBody(STRICT_DTO) body: OnlineRebuildRequest, @Res() reply: FastifyReply) {
    const release = await this.runtime.limiter.acquire();
    try {
      const report = await rebuildOnline(this.runtime.db, { name: body.name });
      void reply.code(200).send({ status: report.equal ? 'ok' : 'failed', ...report });
    } catch (error) {
      if (error instanceof UnknownProjectionError) throw gatewayError(404, 'not_found', 'projection_unknown', error.message);
      if (error instanceof RebuildBusyError) throw gatewayError(429, 'resource_limit', 'rebuild_running', error.message);
      throw error;
    } finally {
      release();
    }
  }
}
