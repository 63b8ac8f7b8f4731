import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/plans: the dry run of a candidate proposal (stores nothing). */
@Controller()
export class PlansController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_edit_plan')
  plan(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_edit_plan', req, res);
  }
}
