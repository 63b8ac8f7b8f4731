import { createHash } from 'node:crypto';
import { canonicalJson } from './canonical-json';

/**
 * The hash chain of a stream. An event's digest is SHA-256 of the UTF-8 canonical JSON of the event as
 * stored (its payload as written, effects included, never as upcast on read); its link is
 * SHA-256(previous link ‖ digest), the first event of a stream linking to 32 zero bytes. A stream's
 * last link therefore covers every event of the stream, in order (docs/audit-log.md).
 */

/** What an event's digest covers: every stored column but the ones the database assigns (position, xid). */
export interface ChainedEvent {
  streamId: string;
  streamVersion: number;
  type: string;
  schemaVersion: number;
  data: unknown;
  metadata: Record<string, unknown>;
  /** ISO 8601; read as a Date and written in UTC with milliseconds, as the store returns it. */
  recordedAt: string;
}

/** The link before a stream's first event. */
export const GENESIS_LINK = '0'.repeat(64);

/** The canonical text an event's digest is taken of. */
export function eventCanonicalText(event: ChainedEvent): string {
  return canonicalJson({
    data: event.data === undefined ? null : event.data,
    metadata: event.metadata,
    recordedAt: normalizedInstant(event.recordedAt),
    schemaVersion: event.schemaVersion,
    streamId: event.streamId,
    streamVersion: event.streamVersion,
    type: event.type,
  });
}

/** Lowercase hex SHA-256 of the event's canonical text. */
export function eventDigest(event: ChainedEvent): string {
  return createHash('sha256').update(eventCanonicalText(event), 'utf8').digest('hex');
}

/** SHA-256(previous ‖ digest), both 32 bytes given as hex. */
export function chainLink(previousHex: string, digestHex: string): string {
  return createHash('sha256').update(Buffer.from(previousHex, 'hex')).update(Buffer.from(digestHex, 'hex')).digest('hex');
}

/** An instant as the store gives it back: UTC, milliseconds (a finer fraction is cut, as Date cuts it). */
export function normalizedInstant(iso: string): string {
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${iso}`);
  return date.toISOString();
}

/** What an event's leaf in the Merkle log holds: its place in the log and its stream's link (docs/audit-log.md). */
export function eventLeafData(event: { globalPosition: number; streamId: string; streamVersion: number }, chainHex: string): string {
  return canonicalJson({ chain: chainHex, position: event.globalPosition, streamId: event.streamId, streamVersion: event.streamVersion });
}
