import { raw, sql, type SqlFragment } from './sql-fragment';
import type { NewEvent } from './stored-event';

/**
 * Inline projections, registered with the store the way Emmett registers them with its event store:
 * each declares the event types it handles and, for one event, returns the writes that bring its read
 * models up to it. The store runs them in the statement that appends the event (as CTEs), so an event
 * and every read model it touches commit together in one round trip. The store knows the events' types
 * only as strings: what a projection writes is the projection's.
 */

/** The part of an event its projections switch on (a discriminated union narrows on `type`). */
export interface EventLike {
  type: string;
  data: unknown;
}

/** One event as its inline projections see it: the same shape for every aggregate, riding or rebuilt. */
export interface ProjectedEvent<E extends EventLike = EventLike, After = unknown> {
  event: E;
  streamId: string;
  streamVersion: number;
  recordedAt: string;
  /** Its global position: a parameter when known (a rebuild), else read from the row its append inserts. */
  position: SqlFragment;
  /** True once the event is in the log: riding with its append, whether the append inserted anything. */
  appended: SqlFragment;
  /** What its writer knew right after it that the event does not say (the aggregate's state): opaque to the store. */
  after: After;
}

export interface InlineProjection<E extends EventLike = EventLike, After = unknown> {
  readonly name: string;
  /** The event types it projects. */
  readonly canHandle: readonly E['type'][];
  /** Writes that must run on their own, before the event's append (a renumbering): such an event takes a statement of its own. */
  before?(event: ProjectedEvent<E, After>): SqlFragment[];
  /** The writes that ride with the event: data-modifying statements, joined as CTEs of its append. */
  handle(event: ProjectedEvent<E, After>): SqlFragment[];
}

/** An event to append, with what its projections need beyond it (see ProjectedEvent.after). */
export interface EventToAppend extends NewEvent {
  after?: unknown;
}

/** Which projections run for which event type, in registration order. */
export class InlineProjections {
  private readonly byType = new Map<string, InlineProjection[]>();

  register<E extends EventLike, After>(...projections: InlineProjection<E, After>[]): this {
    for (const projection of projections) {
      // The registration by event type is what makes an event of these types an E carrying an After.
      const erased: InlineProjection = {
        name: projection.name,
        canHandle: projection.canHandle,
        before: projection.before && ((pe) => projection.before!(pe as ProjectedEvent<E, After>)),
        handle: (pe) => projection.handle(pe as ProjectedEvent<E, After>),
      };
      for (const type of projection.canHandle) this.byType.set(type, [...(this.byType.get(type) ?? []), erased]);
    }
    return this;
  }

  handles(type: string): boolean {
    return this.byType.has(type);
  }

  /** What the registered projections must run on their own before the event's append. */
  beforeFor(pe: ProjectedEvent): SqlFragment[] {
    return (this.byType.get(pe.event.type) ?? []).flatMap((p) => p.before?.(pe) ?? []);
  }

  /** The registered projections' writes riding with the event. */
  ridingFor(pe: ProjectedEvent): SqlFragment[] {
    return (this.byType.get(pe.event.type) ?? []).flatMap((p) => p.handle(pe));
  }
}

/** An event read back from the log (a rebuild): its position is known. */
export function knownEvent<E extends EventLike, After>(
  event: E,
  at: { streamId: string; streamVersion: number; recordedAt: string; globalPosition: number },
  after: After,
): ProjectedEvent<E, After> {
  const { streamId, streamVersion, recordedAt, globalPosition } = at;
  return { event, streamId, streamVersion, recordedAt, position: sql`${globalPosition}::bigint`, appended: raw('true'), after };
}

/** An event riding with its append, whose new row the statement's CTE `inserted` holds. */
export function ridingEvent(streamId: string, streamVersion: number, event: EventToAppend, inserted: SqlFragment): ProjectedEvent {
  return {
    event: { type: event.type, data: event.data },
    streamId,
    streamVersion,
    recordedAt: event.recordedAt,
    position: sql`(SELECT global_position FROM ${inserted})`,
    appended: sql`EXISTS (SELECT 1 FROM ${inserted})`,
    after: event.after,
  };
}
