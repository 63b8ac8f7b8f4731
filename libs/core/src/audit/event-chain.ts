import { hash } from 'node:crypto';
import { canonicalJson } from '../transaction/record-codec';

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
  return eventCanonicalTextOf(event, canonicalJson(event.data === undefined ? null : event.data), canonicalJson(event.metadata));
}

/**
 * The same text for an event whose data and metadata are already written as canonical JSON, so a
 * writer that sends those texts encodes each payload once: the members in canonical order, by hand.
 */
export function eventCanonicalTextOf(event: Omit<ChainedEvent, 'data' | 'metadata'>, dataJson: string, metadataJson: string): string {
  return (
    `{"data":${dataJson},"metadata":${metadataJson},"recordedAt":${JSON.stringify(normalizedInstant(event.recordedAt))},` +
    `"schemaVersion":${numberJson(event.schemaVersion)},"streamId":${JSON.stringify(event.streamId)},` +
    `"streamVersion":${numberJson(event.streamVersion)},"type":${JSON.stringify(event.type)}}`
  );
}

/** A finite number is written as canonicalJson writes it (JSON.stringify's form, which String gives); anything else is its business. */
const numberJson = (n: number): string => (typeof n === 'number' && Number.isFinite(n) ? String(n) : canonicalJson(n));

/** Lowercase hex SHA-256 of the event's canonical text. */
export function eventDigest(event: ChainedEvent): string {
  return digestOfText(eventCanonicalText(event));
}

/** Lowercase hex SHA-256 of a canonical text's UTF-8. */
export function digestOfText(canonicalText: string): string {
  return hash('sha256', canonicalText, 'hex');
}

/** previous ‖ digest, written in place (one-shot hashing of one buffer: verification hashes a million of them). */
const linkInput = Buffer.alloc(64);

/** SHA-256(previous ‖ digest), both 32 bytes given as hex. */
export function chainLink(previousHex: string, digestHex: string): string {
  linkInput.write(previousHex, 0, 32, 'hex');
  linkInput.write(digestHex, 32, 32, 'hex');
  return hash('sha256', linkInput, 'hex');
}

/** SHA-256(previous ‖ SHA-256(canonical text)): the digest is taken as a binary string and written in place (no hex between). */
export function chainLinkOfText(previousHex: string, canonicalText: string): string {
  linkInput.write(previousHex, 0, 32, 'hex');
  linkInput.write(hash('sha256', canonicalText, 'binary'), 32, 32, 'latin1');
  return hash('sha256', linkInput, 'hex');
}

/** UTC with milliseconds on a day every month has (Date rolls a 30 February over into March). */
const UTC_MILLIS = /^\d{4}-(0[1-9]|1[0-2])-(0[1-9]|1\d|2[0-8])T([01]\d|2[0-3]):[0-5]\d:[0-5]\d\.\d{3}Z$/;

/** An instant as the store gives it back: UTC, milliseconds (a finer fraction is cut, as Date cuts it). */
export function normalizedInstant(iso: string): string {
  // What the store and the clock write already (the append's common case): Date would give it back unchanged.
  if (UTC_MILLIS.test(iso)) return iso;
  const date = new Date(iso);
  if (Number.isNaN(date.getTime())) throw new RangeError(`not an instant: ${iso}`);
  return date.toISOString();
}

/** What an event's leaf in the Merkle log holds: its place in the log and its stream's link (docs/audit-log.md). */
export function eventLeafData(event: { globalPosition: number; streamId: string; streamVersion: number }, chainHex: string): string {
  // Its members in canonical order, by hand (a hex link needs no escaping; the numbers are integers).
  return `{"chain":${JSON.stringify(chainHex)},"position":${numberJson(event.globalPosition)},"streamId":${JSON.stringify(event.streamId)},"streamVersion":${numberJson(event.streamVersion)}}`;
}
