import { Controller, Req, Res } from '@nestjs/common';
import type { Request, Response } from 'express';
import { OperationRunner } from '../operations/operation-runner';
import { OperationEndpoint } from '../routes/endpoint.decorators';

/** /v1/targets: create a target and read it (whole, exported, by slice, by lines, by occurrence). */
@Controller()
export class TargetsController {
  constructor(private readonly runner: OperationRunner) {}

  @OperationEndpoint('palimpsest_initialize_target')
  initialize(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_initialize_target', req, res);
  }

  @OperationEndpoint('palimpsest_get_target')
  get(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_get_target', req, res);
  }

  @OperationEndpoint('palimpsest_export_target')
  export(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_export_target', req, res);
  }

  @OperationEndpoint('palimpsest_read_target')
  text(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_read_target', req, res);
  }

  @OperationEndpoint('palimpsest_read_lines')
  lines(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_read_lines', req, res);
  }

  @OperationEndpoint('palimpsest_find_occurrences')
  occurrences(@Req() req: Request, @Res() res: Response) {
    return this.runner.run('palimpsest_find_occurrences', req, res);
  }
}
