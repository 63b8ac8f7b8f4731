import type { EventId, EventStore, StreamId } from '@modelcontextprotocol/sdk/server/streamableHttp.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';

export interface EventStoreLimits {
  /** Events kept per SSE stream (the session's GET stream, each POST's response stream). */
  perStream: number;
  /** Events kept in all of one session's streams together. */
  total: number;
  /** Characters of JSON kept in all (tool results can be large: this bounds the memory, not the count). */
  chars: number;
}

/** What a session keeps for a client that reconnects with Last-Event-ID. */
export const DEFAULT_EVENT_LIMITS: EventStoreLimits = { perStream: 200, total: 1_000, chars: 4 * 1024 * 1024 };

/**
 * The SDK's EventStore, in memory and bounded, one per session: what was sent on a stream stays
 * replayable until the stream holds `perStream` newer events, or the session `total` events or `chars`
 * characters of JSON (the oldest go first, across streams; an event larger than `chars` is sent live
 * and not kept). A client resuming after an evicted event gets what is still kept of its
 * stream: it learns of the gap from the ids (`<stream>/<sequence>`, sequence counting up per session).
 * State lives in this process: resuming needs the same gateway (stateless mode has no sessions).
 */
export class BoundedEventStore implements EventStore {
  private readonly streams = new Map<StreamId, { seq: number; message: JSONRPCMessage; chars: number }[]>();
  /** Every kept event in the order stored: eviction drops from the front. */
  private readonly order: { streamId: StreamId; seq: number }[] = [];
  private seq = 0;
  private chars = 0;

  constructor(private readonly limits: EventStoreLimits = DEFAULT_EVENT_LIMITS) {}

  get size(): number {
    return this.order.length;
  }

  /** Characters of JSON kept. */
  get kept(): number {
    return this.chars;
  }

  async storeEvent(streamId: StreamId, message: JSONRPCMessage): Promise<EventId> {
    const seq = ++this.seq;
    const chars = JSON.stringify(message).length;
    let events = this.streams.get(streamId);
    if (!events) this.streams.set(streamId, (events = []));
    events.push({ seq, message, chars });
    this.order.push({ streamId, seq });
    this.chars += chars;
    if (events.length > this.limits.perStream) this.evictFrom(streamId);
    while (this.order.length > this.limits.total || this.chars > this.limits.chars) this.evictFrom(this.order[0]!.streamId);
    return eventId(streamId, seq);
  }

  async getStreamIdForEventId(id: EventId): Promise<StreamId | undefined> {
    const parsed = parseEventId(id);
    return parsed && parsed.seq <= this.seq && this.streams.has(parsed.streamId) ? parsed.streamId : undefined;
  }

  async replayEventsAfter(lastEventId: EventId, { send }: { send: (eventId: EventId, message: JSONRPCMessage) => Promise<void> }): Promise<StreamId> {
    const parsed = parseEventId(lastEventId);
    const events = parsed ? this.streams.get(parsed.streamId) : undefined;
    if (!parsed || !events) throw new Error(`unknown event id ${JSON.stringify(lastEventId)}`);
    for (const event of events.filter((e) => e.seq > parsed.seq)) await send(eventId(parsed.streamId, event.seq), event.message);
    return parsed.streamId;
  }

  /** Drops the oldest event of a stream (and the stream once empty). */
  private evictFrom(streamId: StreamId): void {
    const events = this.streams.get(streamId)!;
    const oldest = events.shift()!;
    this.chars -= oldest.chars;
    const at = this.order.findIndex((e) => e.streamId === streamId && e.seq === oldest.seq);
    this.order.splice(at, 1);
    if (events.length === 0) this.streams.delete(streamId);
  }
}

const eventId = (streamId: StreamId, seq: number): EventId => `${streamId}/${seq}`;

function parseEventId(id: EventId): { streamId: StreamId; seq: number } | null {
  const slash = id.lastIndexOf('/');
  const seq = Number(id.slice(slash + 1));
  return slash > 0 && Number.isSafeInteger(seq) && seq > 0 ? { streamId: id.slice(0, slash), seq } : null;
}
