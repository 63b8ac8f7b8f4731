import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/candidates: propose a change over targets, inspect it, check it, apply or discard it. */
@Controller()
export class CandidatesController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_change_propose')
  propose(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_change_propose', req, res);
  }

  @OperationEndpoint('palimpsest_change_inspect')
  inspect(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_change_inspect', req, res);
  }

  @OperationEndpoint('palimpsest_check_run')
  checks(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_check_run', req, res);
  }

  @OperationEndpoint('palimpsest_change_apply')
  apply(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_change_apply', req, res);
  }

  @OperationEndpoint('palimpsest_change_discard')
  discard(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_change_discard', req, res);
  }
}
