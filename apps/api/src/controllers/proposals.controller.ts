import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/edits|operations|replacement|previews: guarded transactions, and their dry run. */
@Controller()
export class ProposalsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_submit_edits')
  edits(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_submit_edits', req, res);
  }

  @OperationEndpoint('palimpsest_submit_operations')
  operations(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_submit_operations', req, res);
  }

  @OperationEndpoint('palimpsest_submit_replacement')
  replacement(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_submit_replacement', req, res);
  }

  @OperationEndpoint('palimpsest_preview')
  preview(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_preview', req, res);
  }
}
