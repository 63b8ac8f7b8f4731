import { Controller, Res } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { Response } from 'express';
import { ApiRuntime } from '../api-runtime';
import { GatewayEndpoint } from '../routes/endpoint.decorators';

/** /metrics: Prometheus text exposition of the gateway's registry. */
@Controller()
export class MetricsController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('metrics')
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'Prometheus text format.' })
  async scrape(@Res() res: Response) {
    const { registry } = this.runtime.metrics;
    res.status(200).type(registry.contentType).send(await registry.metrics());
  }
}
