import { isDeepStrictEqual } from 'node:util';
import { readAll, type LogSource } from '@palimpsest/store/read-all';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { msgIdOf, subjectOf, toEnvelope } from '../relay-envelope';
import type { RelayedMessage } from './jetstream-reader';

export interface RelayAudit {
  events: number;
  messages: number;
  /** Nats-Msg-Ids seen more than once, and positions seen more than once by content. */
  duplicateIds: string[];
  duplicatePositions: number[];
  /** Positions in the events table with no message. */
  missing: number[];
  /** Messages whose subject, header or body differs from the event at their position. */
  mismatched: number[];
  /** Streams whose versions do not arrive as 1, 2, 3… in JetStream order. */
  outOfOrder: string[];
}

/** Compares the whole JetStream stream with the events table: exactly once, in per-stream order. */
export async function auditRelayed(db: LogSource, messages: readonly RelayedMessage[], subjectPrefix: string): Promise<RelayAudit> {
  return auditAgainst(await readAll(db, { limit: 10_000_000 }), messages, subjectPrefix);
}

/** auditRelayed against the log as read before (a store this process no longer holds). */
export function auditAgainst(events: readonly StoredEvent[], messages: readonly RelayedMessage[], subjectPrefix: string): RelayAudit {
  const byPosition = new Map(events.map((e) => [e.globalPosition, e]));
  const ids = new Map<string, number>();
  const positions = new Map<number, number>();
  const mismatched: number[] = [];
  const nextVersion = new Map<string, number>();
  const outOfOrder = new Set<string>();
  for (const m of messages) {
    const p = m.body.global_position;
    ids.set(String(m.msgId), (ids.get(String(m.msgId)) ?? 0) + 1);
    positions.set(p, (positions.get(p) ?? 0) + 1);
    const event = byPosition.get(p);
    if (!event || m.msgId !== msgIdOf(event) || m.subject !== subjectOf(subjectPrefix, event) || !isDeepStrictEqual(m.body, toEnvelope(event))) mismatched.push(p);
    const expected = nextVersion.get(m.body.stream_id) ?? 1;
    if (m.body.stream_version !== expected) outOfOrder.add(m.body.stream_id);
    nextVersion.set(m.body.stream_id, m.body.stream_version + 1);
  }
  return {
    events: events.length,
    messages: messages.length,
    duplicateIds: [...ids].filter(([, n]) => n > 1).map(([id]) => id),
    duplicatePositions: [...positions].filter(([, n]) => n > 1).map(([p]) => p),
    missing: events.map((e) => e.globalPosition).filter((p) => !positions.has(p)),
    mismatched,
    outOfOrder: [...outOfOrder],
  };
}

/** What auditRelayed returns when the relay did its job for `events` events. */
export function cleanAudit(events: number): RelayAudit {
  return { events, messages: events, duplicateIds: [], duplicatePositions: [], missing: [], mismatched: [], outOfOrder: [] };
}
