import { Body, Controller, Req, Res, ValidationPipe } from '@nestjs/common';
import { ApiBody, ApiResponse } from '@nestjs/swagger';
import type { Request, Response } from 'express';
import { ApiRuntime } from '../api-runtime';
import { ReplayAllRequest } from '../operations/operator.dto';
import { OperationRunner } from '../operations/operation-runner';
import { replayAll } from '../operations/replay-all';
import { GatewayEndpoint, OperationEndpoint } from '../routes/endpoint.decorators';

export const STRICT_DTO = new ValidationPipe({ whitelist: true, forbidNonWhitelisted: true, transform: true });

/** Replay: one target (auditor, the catalog operation) or every target a page at a time (operator). */
@Controller()
export class ReplayController {
  constructor(
    private readonly runner: OperationRunner,
    private readonly runtime: ApiRuntime,
  ) {}

  @OperationEndpoint('palimpsest_replay')
  target(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_replay', req, res);
  }

  @GatewayEndpoint('replay_all')
  @ApiBody({ type: ReplayAllRequest, required: false })
  @ApiResponse({ status: 200, description: 'status success (every target matched) or failed, with the diverged reports.' })
  async all(@Body(STRICT_DTO) body: ReplayAllRequest, @Res() res: Response) {
    const release = await this.runtime.limiter.acquire();
    try {
      res.status(200).json(await replayAll(this.runtime.ctx, { limit: body.limit ?? 100, after: body.after ?? 0 }));
    } finally {
      release();
    }
  }
}
