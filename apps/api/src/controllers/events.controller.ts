import { Controller, Headers, Param, Query, Req, Res } from '@nestjs/common';
import { ApiHeader, ApiParam, ApiProduces, ApiResponse } from '@nestjs/swagger';
import type { FastifyReply, FastifyRequest } from 'fastify';
import { ApiRuntime } from '../api-runtime';
import { resumePosition } from '../events/event-streams';
import { EventsQuery } from '../operations/operator.dto';
import { GatewayEndpoint } from '../routes/endpoint.decorators';
import { STRICT_DTO } from './replay.controller';

/** /v1/targets/{id}/events: the target's events as Server-Sent Events, each with its global position as id. */
@Controller()
export class EventsController {
  constructor(private readonly runtime: ApiRuntime) {}

  @GatewayEndpoint('target_events')
  @ApiParam({ name: 'id', description: 'Target UUID (target_file_id).', schema: { type: 'string' } })
  @ApiHeader({ name: 'Last-Event-ID', required: false, description: 'Resume after this global position (sent by EventSource on reconnect).' })
  @ApiProduces('text/event-stream')
  @ApiResponse({ status: 200, description: 'text/event-stream: `id` = global position, `event` = event type, `data` = the event as JSON; heartbeat comments.' })
  async stream(
    @Param('id') id: string,
    @Query(STRICT_DTO) query: EventsQuery,
    @Headers('last-event-id') lastEventId: string | undefined,
    @Req() req: FastifyRequest,
    @Res() reply: FastifyReply,
  ) {
    await this.runtime.streams.serve(id, resumePosition(lastEventId, query.after), req, reply);
  }
}
