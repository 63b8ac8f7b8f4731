import { Controller, Res, ValidationPipe } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiRuntime } from '../api-runtime';
import { ReplayAllRequest } from '../operations/operator.dto';
import { JsonBody } from '../lifecycle/json-body.pipe';
import { replayAll } from '../operations/replay-all';
import { GatewayEndpoint } from '../routes/endpoint.decorators';

/** Query and body DTOs: unknown fields are refused (400), values converted; @JsonBody() is a custom decorator, so it is opted in. */
export const STRICT_DTO = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true, validateCustomDecorators: true });

/** Replay every target, a page at a time (operator). One target's replay is the catalog operation palimpsest_replay. */
@Controller()
export class ReplayController {
  constructor(private readonly runtime: ApiRuntime) {}

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
