import { Controller, Req, Res, ValidationPipe } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRuntime } from '../api-runtime';
import { ReplayAllRequest } from '../operations/operator.dto';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { OperationRunner } from '../operations/operation-runner';
import { replayAll } from '../operations/replay-all';
import { GatewayEndpoint, OperationEndpoint } from '../routes/endpoint.decorators';

/** Query and body DTOs: unknown fields are refused (400), values converted; @JsonBody() is a custom decorator, so it is opted in. */
export const STRICT_DTO = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, validateCustomDecorators: true });

/** Replay: one target (auditor, the catalog operation) or every target a page at a time (operator). */
@Controller()
export class ReplayController {
  constructor(
    private readonly runner: OperationRunner,
    private readonly runtime: ApiRuntime,
  ) {}

  @OperationEndpoint('palimpsest_replay')
  target(@JsonBody() body: unknown, @Req() req: FastifyRequest, @Res() reply: FastifyReply) {
    return this.runner.run('palimpsest_replay', req, reply, body);
  }

  @GatewayEndpoint('replay_all')
  @ApiBody({ type: ReplayAllRequest, required: false })
  @ApiResponse({ status: 200, description: 'status success (every target matched) or failed, with the diverged reports.' })
  async all(@JsonBody(STRICT_DTO) body: ReplayAllRequest, @Res() reply: FastifyReply) {
    const release = await this.runtime.limiter.acquire();
    try {
      void reply.code(200).send(await replayAll(this.runtime.ctx, { limit: body.limit ?? 100, after: body.after ?? 0 }));
    } finally {
      release();
    }
  }
}
