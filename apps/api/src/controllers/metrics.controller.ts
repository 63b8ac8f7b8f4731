import { Controller, Res } from '@nestjs/common';
import { ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply } from 'fastify';
import { ApiRuntime } from '../api-runtime';
import { GatewayEndpoint } from '../routes/endpoint.decorators';

/** /metrics: Prometheus text exposition of the gateway's registry. */
@Controller()
export class MetricsController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('metrics')
  @ApiProduces('text/plain')
  @ApiResponse({ status: 200, description: 'Prometheus text format.' })
  async scrape(@Res() reply: FastifyReply) {
    const { registry } = this.runtime.metrics;
    void reply.code(200).type(registry.contentType).send(await registry.metrics());
  }
}
