import type { Sql } from '../db';
import type { NewEvent } from '../stored-event';

let counter = 0;

/** A unique stream id per call, so tests sharing one database never collide. */
export function uniqueStreamId(prefix = 'stream'): string {
  counter += 1;
  return `${prefix}-${process.pid}-${Date.now().toString(36)}-${counter}`;
}

export function sampleEvent(n: number, overrides: Partial<NewEvent> = {}): NewEvent {
  return {
    type: 'SampleHappened',
    schemaVersion: 1,
    data: { n },
    recordedAt: new Date(Date.UTC(2024, 0, 1, 0, 0, n % 60, n % 1000)).toISOString(),
    ...overrides,
  };
}

export function sampleEvents(count: number, from = 1): NewEvent[] {
  return Array.from({ length: count }, (_, i) => sampleEvent(from + i));
}

/** Wraps an Sql and counts the statements sent through it (the round trips). */
export function countingSql(inner: Sql): Sql & { readonly count: number; readonly texts: string[] } {
  const texts: string[] = [];
  return {
    get count() {
      return texts.length;
    },
    texts,
    query: (text, params) => {
      texts.push(text);
      return inner.query(text, params);
    },
  };
}
