import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/capabilities: the service manifest. */
@Controller()
export class CapabilitiesController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_capabilities')
  get(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_capabilities', req, res);
  }
}
