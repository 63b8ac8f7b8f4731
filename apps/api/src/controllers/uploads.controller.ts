import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/uploads: create a target from uploaded text (content required). */
@Controller()
export class UploadsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_handle_upload')
  upload(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_handle_upload', req, res);
  }
}
