import type { CoverageGap } from '@palimpsest/core/structure/code-graph.port';
import { CODE_GRAPH_LIMITS } from '@palimpsest/protocol/catalog/operations/code-graph.operations';

/**
 * Coverage and truncation of the code graph's answers (seed 000's shapes). An answer never drops content
 * silently: each list cut by a limit is an omission with its count and up to 50 of the node ids it left
 * out, and the whole answer, truncation included, stays within max_bytes (UTF-8 of its compact JSON).
 */

export interface Limits {
  max_bytes: number;
  max_depth: number;
  max_items: number;
  max_nodes: number;
}

export type OmissionReason = 'max_bytes' | 'max_items' | 'max_nodes' | 'max_depth' | 'limit';

export interface Omission {
  reason: OmissionReason;
  part: string;
  count: number;
  node_ids: string[];
}

export interface Truncation {
  truncated: boolean;
  limits: Limits;
  used: { bytes: number };
  omissions: Omission[];
  continuation: string | null;
}

export interface Coverage {
  completeness: 'complete' | 'partial' | 'unknown';
  exhaustive: boolean;
  gaps: CoverageGap[];
}

/** Omitted limits take the defaults; values above the maximum are lowered. */
export function limitsOf(asked: Partial<Limits> | undefined): Limits {
  const pick = (k: keyof Limits) => Math.min(asked?.[k] ?? CODE_GRAPH_LIMITS[k].default, CODE_GRAPH_LIMITS[k].maximum);
  return { max_bytes: pick('max_bytes'), max_depth: pick('max_depth'), max_items: pick('max_items'), max_nodes: pick('max_nodes') };
}

/** Gaps, one per reason and site; unknown when nothing of the kind asked about was indexed. */
export function coverageOf(gaps: CoverageGap[], indexed = true): Coverage {
  const seen = new Set<string>();
  const unique = gaps.filter((g) => {
    const key = `${g.reason}\0${g.site ? `${g.site.path}:${g.site.line}:${g.site.column}` : g.detail}`;
    return !seen.has(key) && seen.add(key) !== undefined;
  });
  if (!indexed) return { completeness: 'unknown', exhaustive: false, gaps: unique };
  return { completeness: unique.length === 0 ? 'complete' : 'partial', exhaustive: unique.length === 0, gaps: unique };
}

/** One list of an answer that limits may cut from its end, with the node id each item names (parts of one name are one list). */
export interface Part<T> {
  name: string;
  items: T[];
  idOf: (item: T) => string;
  /** Items already left out before the budget (an earlier limit): reported with the budget's. */
  omitted?: Omission;
  /** Never cut (required context): an answer that cannot hold them is refused. */
  pinned?: boolean;
}

const bytesOf = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

/**
 * Fits an answer: `base` plus each part's items, in order, cut from the end of the last parts until the
 * whole answer (its truncation included) is within max_bytes. `continuation` is computed from the items kept.
 */
export function fitAnswer<A>(
  base: object,
  parts: Part<unknown>[],
  limits: Limits,
  continuation: (kept: number[]) => string | null = () => null,
): A | TooSmall {
  const answer = fitted(base, parts, limits, continuation);
  if (answer.truncation.used.bytes <= limits.max_bytes) return answer as A;
  // fitted() gave up with every list empty and no omitted ids listed: the smallest answer there is.
  // It names limits.max_bytes: at the budget it asks for, that number has more digits.
  const digits = (n: number) => String(n).length;
  let bytes = answer.truncation.used.bytes;
  for (let next = answer.truncation.used.bytes - digits(limits.max_bytes) + digits(bytes); next !== bytes; ) {
    bytes = next;
    next = answer.truncation.used.bytes - digits(limits.max_bytes) + digits(bytes);
  }
  return {
    status: 'invalid_argument',
    code: 'max_bytes_too_small',
    failure_detail: `This answer needs at least ${bytes} bytes (its snapshot, coverage, and truncation counting every item as omitted), more than limits.max_bytes (${limits.max_bytes}): repeat with limits.max_bytes of at least ${bytes}.`,
    argument: 'limits',
    required_bytes: bytes,
  };
}

/** max_bytes below what an answer needs with every list empty: nothing is cut silently, so nothing is answered. */
export interface TooSmall {
  status: 'invalid_argument';
  code: 'max_bytes_too_small';
  failure_detail: string;
  argument: 'limits';
  required_bytes: number;
}

function fitted(base: object, parts: Part<unknown>[], limits: Limits, continuation: (kept: number[]) => string | null) {
  const kept = parts.map((p) => p.items.length);
  const sizes = parts.map((p) => p.items.map((i) => bytesOf(i) + 1));
  let idCap = 50;
  for (let round = 0; round < 64; round++) {
    const answer = assemble(base, parts, kept, limits, idCap, continuation(kept));
    const over = answer.truncation.used.bytes - limits.max_bytes;
    if (over <= 0) return answer;
    if (!drop(kept, sizes, over, parts)) {
      if (idCap === 0) return answer;
      idCap = Math.floor(idCap / 4);
    }
  }
  return assemble(base, parts, kept, limits, 0, continuation(kept));
}

/** Drops items from the end of the last non-empty parts until `over` bytes are freed; false when none are left. */
function drop(kept: number[], sizes: number[][], over: number, parts: Part<unknown>[]): boolean {
  let freed = 0;
  let dropped = false;
  for (let p = kept.length - 1; p >= 0 && freed < over; p--) {
    if (parts[p].pinned) continue;
    while (kept[p] > 0 && freed < over) {
      kept[p]--;
      freed += sizes[p][kept[p]];
      dropped = true;
    }
  }
  return dropped;
}

function assemble<B extends object>(base: B, parts: Part<unknown>[], kept: number[], limits: Limits, idCap: number, continuation: string | null) {
  const omissions: Omission[] = [];
  const body: Record<string, unknown> = {};
  parts.forEach((p, i) => {
    body[p.name] = [...((body[p.name] as unknown[] | undefined) ?? []), ...p.items.slice(0, kept[i])];
    if (p.omitted) omissions.push({ ...p.omitted, node_ids: p.omitted.node_ids.slice(0, idCap) });
    const left = p.items.slice(kept[i]);
    if (left.length > 0) omissions.push({ reason: 'max_bytes', part: p.name, count: left.length, node_ids: [...new Set(left.map(p.idOf))].slice(0, idCap) });
  });
  const truncation: Truncation = { truncated: omissions.length > 0, limits, used: { bytes: 0 }, omissions, continuation };
  const answer = { ...base, ...body, truncation };
  for (let bytes = bytesOf(answer); bytes !== truncation.used.bytes; bytes = bytesOf(answer)) truncation.used.bytes = bytes;
  return answer;
}

/** The first `limit` items, the rest as an omission. */
export function capped<T>(items: T[], limit: number, reason: OmissionReason, part: string, idOf: (item: T) => string): { items: T[]; omitted?: Omission } {
  if (items.length <= limit) return { items };
  const left = items.slice(limit);
  return { items: items.slice(0, limit), omitted: { reason, part, count: left.length, node_ids: [...new Set(left.map(idOf))].slice(0, 50) } };
}
