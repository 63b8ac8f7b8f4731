import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/checkpoints: snapshot the target and rotate its editing cycle. */
@Controller()
export class CheckpointsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_save')
  save(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_save', req, res);
  }
}
