import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/attempts: the append-only attempt log (auditor). */
@Controller()
export class AttemptsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_get_attempt_log')
  list(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_get_attempt_log', req, res);
  }
}
