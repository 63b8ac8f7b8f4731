import { canonicalValueEnd, stringEnd } from './canonical-scan';
import { normalizedInstant } from './event-chain';

export interface InclusionOnLine {
  path: string[];
  tree_size: number;
}

/** One event line read back: its text hashed as written, the rest parsed. */
export interface EventLine {
  position: number;
  leafIndex: number | null;
  chain: string;
  proof: string | InclusionOnLine | null;
  streamId: string;
  streamVersion: number;
  /** The event's canonical text, a slice of the line: what its digest is taken of. */
  text: string;
}

/**
 * An event line read by scanning its text once, nothing parsed but the few fields the checks need: the
 * line accepted only when it is in canonical form throughout. Null when it is not, or takes a form the
 * scan leaves to the parser (readEventLine then parses it and says why).
 */
export function scanEventLine(line: string): EventLine | null {
  if (line.charCodeAt(0) !== 91) return null;
  const positionEnd = canonicalValueEnd(line, 1);
  const position = integerIn(line, 1, positionEnd);
  if (position === null || line.charCodeAt(positionEnd) !== COMMA) return null;
  const leafEnd = canonicalValueEnd(line, positionEnd + 1);
  const noLeaf = leafEnd === positionEnd + 5 && line.startsWith('null', positionEnd + 1);
  const leafIndex = noLeaf ? null : integerIn(line, positionEnd + 1, leafEnd);
  if ((!noLeaf && leafIndex === null) || line.charCodeAt(leafEnd) !== COMMA) return null;
  const chainEnd = stringEnd(line, leafEnd + 1);
  const chain = plainString(line, leafEnd + 1, chainEnd);
  if (chain === null || line.charCodeAt(chainEnd) !== COMMA) return null;
  const proofEnd = canonicalValueEnd(line, chainEnd + 1);
  if (proofEnd < 0 || line.charCodeAt(proofEnd) !== COMMA) return null;
  const proof = proofOf(line, chainEnd + 1, proofEnd);
  if (proof === undefined) return null;
  const event = scanEvent(line, proofEnd + 1);
  if (!event || event.end !== line.length - 1 || line.charCodeAt(event.end) !== 93) return null;
  return { position, leafIndex, chain, proof, streamId: event.streamId, streamVersion: event.streamVersion, text: line.slice(proofEnd + 1, event.end) };
}

const COMMA = 44;

/** The event's members in the one order the digest has them; their values canonical. */
function scanEvent(line: string, at: number): { streamId: string; streamVersion: number; end: number } | null {
  let i = member(line, at, '{"data":');
  i = member(line, i < 0 ? -1 : canonicalValueEnd(line, i), ',"metadata":');
  i = member(line, i < 0 ? -1 : canonicalValueEnd(line, i), ',"recordedAt":');
  const recordedEnd = i < 0 ? -1 : stringEnd(line, i);
  const recordedAt = plainString(line, i, recordedEnd);
  if (recordedAt === null || !isNormalInstant(recordedAt)) return null;
  i = member(line, recordedEnd, ',"schemaVersion":');
  const schemaEnd = i < 0 ? -1 : canonicalValueEnd(line, i);
  if (integerIn(line, i, schemaEnd) === null) return null;
  i = member(line, schemaEnd, ',"streamId":');
  const streamEnd = i < 0 ? -1 : stringEnd(line, i);
  const streamId = plainString(line, i, streamEnd);
  i = member(line, streamEnd, ',"streamVersion":');
  const versionEnd = i < 0 ? -1 : canonicalValueEnd(line, i);
  const streamVersion = integerIn(line, i, versionEnd);
  i = member(line, versionEnd, ',"type":');
  const typeEnd = i < 0 ? -1 : stringEnd(line, i);
  if (streamId === null || streamVersion === null || typeEnd < 0 || line.charCodeAt(typeEnd) !== 125) return null;
  return { streamId, streamVersion, end: typeEnd + 1 };
}

/** Where the value after `name` starts, when `name` is written at `at`; else -1. */
function member(line: string, at: number, name: string): number {
  return at >= 0 && line.startsWith(name, at) ? at + name.length : -1;
}

function integerIn(line: string, from: number, to: number): number | null {
  if (from < 0 || to < 0) return null;
  const n = Number(line.slice(from, to));
  return Number.isSafeInteger(n) ? n : null;
}

/** A string value without escapes (one with them is left to the parser). */
function plainString(line: string, from: number, to: number): string | null {
  if (from < 0 || to < 0) return null;
  const value = line.slice(from + 1, to - 1);
  return value.includes('\\') ? null : value;
}

/** The proof as written: a leaf hash, an inclusion proof, null; undefined when the scan leaves it to the parser. */
function proofOf(line: string, from: number, to: number): EventLine['proof'] | undefined {
  const c = line.charCodeAt(from);
  if (c === 110) return to === from + 4 ? null : undefined;
  if (c === 34) return plainString(line, from, to) ?? undefined;
  if (c === 123) return JSON.parse(line.slice(from, to)) as EventLine['proof'];
  return undefined;
}

function isNormalInstant(iso: string): boolean {
  try {
    return normalizedInstant(iso) === iso;
  } catch {
    return false;
  }
}
