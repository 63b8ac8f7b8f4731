import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets/{id}/ledger: accepted changes (auditor). */
@Controller()
export class LedgerController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_get_manifest_ledger')
  list(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_get_manifest_ledger', req, res);
  }
}
