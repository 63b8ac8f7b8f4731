import type { FastifyReply, FastifyRequest } from 'fastify';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { Db } from '@palimpsest/store/db';
import { gatewayError, invalidArgumentError } from '../errors/api-error';
import type { EventHub } from './event-hub';
import { SseStream } from './sse-stream';
import { streamExists, versionAtPosition } from '@palimpsest/store/stream-lookups';

export interface EventStreamsOptions {
  heartbeatMs: number;
  maxStreams: number;
}

const EVENTS = 'target_events';

/** The open event streams: opened per request, all closed (cleanly, with a comment) on shutdown. */
export class EventStreams {
  private readonly open = new Set<SseStream>();

  constructor(
    private readonly db: Db,
    private readonly hub: EventHub,
    private readonly opts: EventStreamsOptions,
    private readonly onError: (error: unknown) => void,
  ) {}

  get size(): number {
    return this.open.size;
  }

  /** `after` is the global position of the last event the client holds (Last-Event-ID), 0 for all. */
  async serve(targetId: string, after: number, request: FastifyRequest, reply: FastifyReply): Promise<void> {
    if (!isUuid(targetId)) {
      throw invalidArgumentError(EVENTS, 'invalid_target_file_id', 'target_file_id must be a UUID (8-4-4-4-12 hexadecimal).', {
        argument: 'target_file_id',
      });
    }
    if (this.open.size >= this.opts.maxStreams) {
      throw gatewayError(429, 'resource_limit', 'too_many_streams', `At most ${this.opts.maxStreams} event streams are open at once.`, {
        retryable: 'same_request',
        headers: { 'Retry-After': '5' },
      });
    }
    const streamId = targetStreamId(targetId.toLowerCase());
    await this.assertExists(streamId, targetId);
    const version = await versionAtPosition(this.db, streamId, after);
    const stream = new SseStream(this.db, streamId, version, reply.raw, this.opts.heartbeatMs, this.onError);
    this.open.add(stream);
    stream.onClose(() => this.open.delete(stream));
    const unsubscribe = await this.hub.subscribe(streamId, () => stream.wake());
    stream.onClose(unsubscribe);
    if (request.raw.destroyed) stream.close();
    reply.hijack(); // from here on the stream writes the raw response itself
    stream.open();
  }

  closeAll(comment: string): void {
    for (const stream of [...this.open]) stream.close(comment);
  }

  private async assertExists(streamId: string, targetId: string): Promise<void> {
    if (await streamExists(this.db, streamId)) return;
    throw gatewayError(404, 'not_found', 'target_not_found', `No target with id ${targetId}.`, {
      fields: { code: 'target_not_found', target_file_id: targetId },
    });
  }
}

/** Last-Event-ID wins over ?after= (a reconnecting EventSource sends the header). */
export function resumePosition(lastEventId: string | undefined, after: number | undefined): number {
  if (lastEventId === undefined) return after ?? 0;
  const value = lastEventId.trim();
  if (!/^\d{1,15}$/.test(value)) {
    throw invalidArgumentError(EVENTS, 'invalid_last_event_id', 'Last-Event-ID must be the global position (an integer) of the last event received.', {
      argument: 'Last-Event-ID',
    });
  }
  return Number(value);
}
