import { canonicalJson } from '../transaction/record-codec';
import type { AuditBundle, BundleCheckpoint, BundleConsistency, BundleEvent } from './audit-bundle';
import { eventCanonicalTextOf, normalizedInstant } from './event-chain';
import { scanEventLine, type EventLine } from './event-line-scan';

/**
 * The bundle as lines (`palimpsest-audit-bundle/2`), so a verifier can hand byte ranges to workers that
 * each parse only their own lines. Line 1 is the header (format, key, scope, event count, checkpoints,
 * consistency proofs); then one line per event, in leaf order (events the log has not reached last, by
 * position):
 *
 *   [global_position,leaf_index,"chain_hash",proof,{canonical event}]
 *
 * `proof` is the event's leaf hash in a bundle of the whole log, `{"path":[…],"tree_size":n}` in a bundle
 * of streams, null when the latest checkpoint does not cover it. The event is written exactly as its
 * digest covers it, so the verifier hashes the line's own text; it checks first that the text IS that
 * canonical form, or a line could say one thing to the hash and another to the reader.
 */

export const BUNDLE_LINES_FORMAT = 'palimpsest-audit-bundle/2';

/** Appended to a file's last line when it has no newline: no event line ends so, so the line reads as cut short. */
export const UNTERMINATED = '\u0000';

export interface BundleHeader {
  format: typeof BUNDLE_LINES_FORMAT;
  verifier_key: string;
  scope: AuditBundle['scope'];
  /** How many event lines follow: fewer is a truncated file. */
  events: number;
  checkpoints: BundleCheckpoint[];
  consistency: BundleConsistency[];
}

export type { EventLine, InclusionOnLine } from './event-line-scan';

/** The bundle's lines, header first, each ending in a newline. */
export function* bundleLines(bundle: AuditBundle): Generator<string> {
  const header: BundleHeader = {
    format: BUNDLE_LINES_FORMAT,
    verifier_key: bundle.verifier_key,
    scope: bundle.scope,
    events: bundle.events.length,
    checkpoints: bundle.checkpoints,
    consistency: bundle.consistency,
  };
  yield `${JSON.stringify(header)}\n`;
  const latestSize = bundle.leaves?.length ?? bundle.inclusion[0]?.tree_size ?? 0;
  const proofs = new Map(bundle.inclusion.map((p) => [p.global_position, p]));
  for (const event of inLeafOrder(bundle.events)) {
    const covered = event.leaf_index !== null && event.leaf_index < latestSize;
    const inclusion = proofs.get(event.global_position);
    const proof = !covered ? null : bundle.scope.kind === 'log' ? (bundle.leaves?.[event.leaf_index!] ?? null) : inclusion ? { path: inclusion.path, tree_size: inclusion.tree_size } : null;
    yield `${eventLinePrefix(event.global_position, event.leaf_index, event.chain_hash, proof)}${bundleEventText(event)}]\n`;
  }
}

/** The bundle's lines joined into chunks of about a megabyte, for a stream: a million events do not fit one string. */
export function* bundleChunks(bundle: AuditBundle): Generator<string> {
  let chunk = '';
  for (const line of bundleLines(bundle)) {
    chunk += line;
    if (chunk.length < 1 << 20) continue;
    yield chunk;
    chunk = '';
  }
  if (chunk) yield chunk;
}

/** The whole bundle as one text (tests, and small bundles). */
export const bundleText = (bundle: AuditBundle): string => [...bundleLines(bundle)].join('');

function inLeafOrder(events: readonly BundleEvent[]): BundleEvent[] {
  const key = (e: BundleEvent) => (e.leaf_index === null ? Number.MAX_SAFE_INTEGER : e.leaf_index);
  return [...events].sort((a, b) => key(a) - key(b) || a.global_position - b.global_position);
}

function bundleEventText(e: BundleEvent): string {
  const meta = { streamId: e.stream_id, streamVersion: e.stream_version, type: e.type, schemaVersion: e.schema_version, recordedAt: e.recorded_at };
  return eventCanonicalTextOf(meta, canonicalJson(e.data === undefined ? null : e.data), canonicalJson(e.metadata));
}

const eventLinePrefix = (position: number, leafIndex: number | null, chain: string, proof: EventLine['proof']): string =>
  `[${position},${leafIndex === null ? 'null' : leafIndex},${JSON.stringify(chain)},${proof === null ? 'null' : JSON.stringify(proof)},`;

/** The members of an event's canonical text, in its order. */
const EVENT_MEMBERS = 'data,metadata,recordedAt,schemaVersion,streamId,streamVersion,type';

/** An event line read and checked for form, or why it is not one. */
export function readEventLine(line: string): EventLine | { malformed: string } | { nonCanonical: string; at: Pick<EventLine, 'position' | 'streamId' | 'streamVersion'> } {
  return scanEventLine(line) ?? parseEventLine(line);
}

/** The line parsed and its form compared with its re-encoding: what decides when the scan does not accept a line. */
function parseEventLine(line: string): ReturnType<typeof readEventLine> {
  let row: unknown;
  try {
    row = JSON.parse(line);
  } catch {
    return { malformed: 'not JSON: cut short or altered' };
  }
  if (!Array.isArray(row) || row.length !== 5) return { malformed: 'not an event line ([position, leaf, chain, proof, event])' };
  const [position, leafIndex, chain, proof, event] = row as [unknown, unknown, unknown, unknown, Record<string, unknown>];
  if (!Number.isSafeInteger(position) || !(leafIndex === null || Number.isSafeInteger(leafIndex)) || typeof chain !== 'string') return { malformed: 'its position, leaf index or chain link is not one' };
  if (event === null || typeof event !== 'object' || typeof event.streamId !== 'string' || !Number.isSafeInteger(event.streamVersion)) return { malformed: 'its event has no stream and version' };
  const at = { position: position as number, streamId: event.streamId, streamVersion: event.streamVersion as number };
  const prefix = eventLinePrefix(at.position, leafIndex as number | null, chain, proof as EventLine['proof']);
  if (!line.startsWith(prefix) || line.charCodeAt(line.length - 1) !== 93) return { nonCanonical: 'the line is not written in canonical form', at };
  const text = line.slice(prefix.length, -1);
  const why = nonCanonicalEvent(event, text);
  if (why) return { nonCanonical: why, at };
  return { ...at, leafIndex: leafIndex as number | null, chain, proof: proof as EventLine['proof'], text };
}

/** Why `text` is not the canonical text of `event` (its parse), or null: the canonical encoder decides (the scan refused the line). */
function nonCanonicalEvent(event: Record<string, unknown>, text: string): string | null {
  if (Object.keys(event).join(',') !== EVENT_MEMBERS) return 'its event does not have exactly the members a digest covers';
  if (typeof event.type !== 'string' || !Number.isSafeInteger(event.schemaVersion) || typeof event.recordedAt !== 'string') return 'its event\'s type, schema version or time is not one';
  if (!isNormalInstant(event.recordedAt)) return 'its time is not written as the store writes it';
  return canonicalJson(event) === text ? null : 'the event is not written in canonical JSON (member order, spacing, escapes or numbers)';
}

function isNormalInstant(iso: string): boolean {
  try {
    return normalizedInstant(iso) === iso;
  } catch {
    return false;
  }
}

/** The header line read, or why the text is not a bundle of lines. */
export function readBundleHeader(line: string): BundleHeader | { malformed: string } {
  let header: Partial<BundleHeader>;
  try {
    header = JSON.parse(line) as Partial<BundleHeader>;
  } catch {
    return { malformed: 'its first line is not JSON' };
  }
  if (header?.format !== BUNDLE_LINES_FORMAT) return { malformed: 'not a palimpsest audit bundle' };
  const { events, checkpoints, verifier_key } = header;
  if (typeof events !== 'number' || !Number.isSafeInteger(events) || !Array.isArray(checkpoints) || typeof verifier_key !== 'string') return { malformed: 'its header lacks the event count, the checkpoints or the key' };
  if (!checkpoints.every(isCheckpoint)) return { malformed: 'a checkpoint of its header is not a signed note at a log position' };
  if (header.consistency !== undefined && !(Array.isArray(header.consistency) && header.consistency.every(isConsistency))) return { malformed: 'its header\'s consistency proofs are not a list of sizes and hashes' };
  return { ...header, format: header.format, events, verifier_key, checkpoints, consistency: header.consistency ?? [], scope: header.scope ?? { kind: 'log' } };
}

const isObject = (v: unknown): v is Record<string, unknown> => typeof v === 'object' && v !== null && !Array.isArray(v);
const isCheckpoint = (v: unknown): v is BundleCheckpoint => isObject(v) && typeof v.note === 'string' && Number.isSafeInteger(v.global_position);
const isConsistency = (v: unknown): v is BundleConsistency =>
  isObject(v) && Number.isSafeInteger(v.first_size) && Number.isSafeInteger(v.second_size) && Array.isArray(v.proof) && v.proof.every((h) => typeof h === 'string');
