import type { AuditFailure, AuditReport } from './audit-report';
import type { BundleEvent } from './audit-bundle';
import { readBundleHeader, UNTERMINATED, type BundleHeader } from './bundle-lines';
import type { SignedCheckpoint } from './checkpoint-note';
import { chainLink, GENESIS_LINK } from './event-chain';
import { MerkleBlocks } from './merkle-blocks';
import { verifyCheckpoints } from './verify-checkpoints';
import { rerunEngines } from './verify-engines';
import { ALTERED_LINK, leafWithoutEvent, outOfPlace, versionGap, WRITTEN_BESIDE_LOG } from './failure-reasons';
import { SliceVerifier, type EventAt, type EventFailureAt, type SliceContext, type SliceResult } from './verify-slice';

/**
 * A bundle of lines (`palimpsest-audit-bundle/2`) verified from its slices: the header's checkpoints
 * first (verifyHeader), then the slices' results joined in file order (combineSlices), in the order and
 * with the failures verifyBundle names for a bundle of one document. The caller runs the slices where it
 * likes (worker threads: apps and libs/application); verifyBundleText runs them here, one after another.
 */

export type HeaderCheck = { report: AuditReport } | { header: BundleHeader; latest: SignedCheckpoint | null; context: SliceContext };

export const emptyReport = (failure: AuditFailure | null = null): AuditReport => ({ ok: false, failure, events: 0, streams: 0, checkpoints: 0, proven: 0, latest: null });

export function verifyHeader(line: string, trusted?: string): HeaderCheck {
  const header = readBundleHeader(line);
  if ('malformed' in header) return { report: emptyReport({ kind: 'bundle', reason: header.malformed }) };
  const checked = verifyCheckpoints(header, trusted);
  if ('failure' in checked) return { report: { ...emptyReport(checked.failure), events: header.events, checkpoints: header.checkpoints.length } };
  const { latest } = checked;
  const context = { scope: header.scope?.kind === 'streams' ? ('streams' as const) : ('log' as const), latestSize: latest?.size ?? 0, latestRoot: latest?.root.toString('hex') ?? null };
  return { header, latest, context };
}

export function combineSlices(header: BundleHeader, latest: SignedCheckpoint | null, slices: readonly SliceResult[]): AuditReport {
  const lines = slices.reduce((n, s) => n + s.lines, 0);
  const report: AuditReport = { ...emptyReport(), events: lines, checkpoints: header.checkpoints.length, latest: latest ? { size: latest.size, root: latest.root.toString('hex') } : null };
  const fail = (failure: AuditFailure): AuditReport => ({ ...report, failure });
  const malformed = firstMalformed(slices);
  if (malformed) return fail(malformed);
  if (lines !== header.events) return fail({ kind: 'bundle', reason: `it announces ${header.events} events and holds ${lines}: the file was truncated, or lines added` });
  const chains = joinChains(slices);
  report.streams = chains.streams;
  if (chains.failure) return fail(chains.failure);
  if (!latest) return { ...report, ok: true };
  const skipped = skippedEvent(slices);
  if (skipped) return fail({ ...skipped, kind: 'event', reason: WRITTEN_BESIDE_LOG });
  const proofs = header.scope?.kind === 'streams' ? streamProofs(slices) : wholeLog(slices, latest);
  if ('failure' in proofs) return fail(proofs.failure);
  return { ...report, ok: true, proven: proofs.proven };
}

function firstMalformed(slices: readonly SliceResult[]): AuditFailure | null {
  let before = 1;
  for (const s of slices) {
    if (s.malformed) return { kind: 'bundle', reason: `line ${before + s.malformed.line + 1} is not an event line: ${s.malformed.reason}` };
    before += s.lines;
  }
  return null;
}

/** Each stream's links across slices: its first event in a slice links to its last before it. The earliest failing event by position wins. */
function joinChains(slices: readonly SliceResult[]): { streams: number; failure: AuditFailure | null } {
  const streams = new Map<string, { version: number; chain: string; failed: boolean }>();
  const failures: EventFailureAt[] = [];
  for (const slice of slices) {
    for (const [id, s] of slice.streams) {
      const before = streams.get(id) ?? { version: 0, chain: GENESIS_LINK, failed: false };
      if (before.failed) continue;
      const failure = s.first.digest === '' ? s.failure : seamFailure(before, s) ?? s.failure;
      if (failure) failures.push(failure);
      streams.set(id, { version: s.lastVersion, chain: s.lastChain, failed: failure !== null });
    }
  }
  const first = failures.sort((a, b) => a.global_position - b.global_position)[0];
  return { streams: streams.size, failure: first ? { kind: 'event', ...first } : null };
}

function seamFailure(before: { version: number; chain: string }, s: SliceResult['streams'][number][1]): EventFailureAt | null {
  const { digest, chain, ...at } = s.first;
  if (at.stream_version !== before.version + 1) return { ...at, reason: versionGap(at.stream_version, before.version + 1) };
  return chainLink(before.chain, digest) === chain ? null : { ...at, reason: ALTERED_LINK };
}

function skippedEvent(slices: readonly SliceResult[]): EventAt | null {
  const lastCovered = Math.max(0, ...slices.map((s) => s.lastCoveredPosition));
  const uncovered = slices.flatMap((s) => (s.firstUncovered ? [s.firstUncovered] : [])).sort((a, b) => a.global_position - b.global_position)[0];
  return uncovered && uncovered.global_position < lastCovered ? uncovered : null;
}

/** The whole log: its lines hold leaves 0…size-1 in order, each the event's own, and they make the signed root. */
function wholeLog(slices: readonly SliceResult[], latest: SignedCheckpoint): { failure: AuditFailure } | { proven: number } {
  let next = 0;
  for (const s of slices) {
    const { first, firstAt } = s.covered;
    if (first !== null && first !== next) return { failure: { kind: 'event', ...firstAt!, reason: outOfPlace(next, first) } };
    if (s.sequence) return { failure: { kind: 'event', ...s.sequence } };
    next += s.covered.count;
  }
  if (next < latest.size) return { failure: { kind: 'bundle', reason: leafWithoutEvent(next, latest.size) } };
  const malformed = slices.find((s) => s.malformedLeaf !== null)?.malformedLeaf;
  if (malformed !== undefined) return { failure: { kind: 'bundle', reason: `leaf ${malformed} is not a hash in lowercase hex` } };
  const tree = new MerkleBlocks();
  for (const s of slices) for (const b of s.blocks) tree.push(b.start, b.size, b.hash);
  if (!tree.root().equals(latest.root)) return { failure: { kind: 'bundle', reason: `its leaf hashes do not make the root of the latest checkpoint (size ${latest.size})` } };
  const leaf = firstByPosition(slices.map((s) => s.leaf));
  return leaf ? { failure: { kind: 'event', ...leaf } } : { proven: next };
}

function streamProofs(slices: readonly SliceResult[]): { failure: AuditFailure } | { proven: number } {
  const leaf = firstByPosition(slices.map((s) => s.leaf));
  return leaf ? { failure: { kind: 'event', ...leaf } } : { proven: slices.reduce((n, s) => n + s.covered.count, 0) };
}

const firstByPosition = (list: readonly (EventFailureAt | null)[]): EventFailureAt | undefined =>
  list.filter((f): f is EventFailureAt => f !== null).sort((a, b) => a.global_position - b.global_position)[0];

/** The lines of a text after its header, each without its newline; a last line without one is a cut file. */
export function* eventLinesOf(text: string, from: number): Generator<string> {
  let at = from;
  while (at < text.length) {
    const end = text.indexOf('\n', at);
    yield end < 0 ? text.slice(at) + UNTERMINATED : text.slice(at, end);
    at = end < 0 ? text.length : end + 1;
  }
}


/** A whole bundle of lines, in this thread; `slices` cuts the event lines into that many runs (as workers would see them). */
export function verifyBundleText(text: string, trusted?: string, { engines = true, slices = 1 }: { engines?: boolean; slices?: number } = {}): AuditReport {
  const headerEnd = text.indexOf('\n');
  const checked = verifyHeader(headerEnd < 0 ? text : text.slice(0, headerEnd), trusted);
  if ('report' in checked) return checked.report;
  const lines = headerEnd < 0 ? [] : [...eventLinesOf(text, headerEnd + 1)];
  const per = Math.max(1, Math.ceil(lines.length / slices));
  const results: SliceResult[] = [];
  for (let from = 0; from < lines.length || results.length === 0; from += per) {
    const slice = new SliceVerifier(checked.context);
    for (const line of lines.slice(from, from + per)) slice.line(line);
    results.push(slice.result());
  }
  const report = combineSlices(checked.header, checked.latest, results);
  return report.ok && engines ? withEngines(report, lines) : report;
}

/** The replay verifier over the target streams' lines (their chains verified: in version order). */
export function withEngines(report: AuditReport, lines: Iterable<string>): AuditReport {
  const streams = new Map<string, BundleEvent[]>();
  for (const line of lines) {
    if (!line.includes('"streamId":"target-')) continue;
    const [position, leafIndex, chain, , e] = JSON.parse(line) as [number, number | null, string, unknown, Record<string, never>];
    const event: BundleEvent = { global_position: position, stream_id: e.streamId, stream_version: e.streamVersion, type: e.type, schema_version: e.schemaVersion, data: e.data, metadata: e.metadata, recorded_at: e.recordedAt, chain_hash: chain, leaf_index: leafIndex };
    const list = streams.get(event.stream_id);
    if (list) list.push(event);
    else streams.set(event.stream_id, [event]);
  }
  const { rerun, failure } = rerunEngines(streams);
  return failure ? { ...report, ok: false, replayed: rerun, failure } : { ...report, ok: true, replayed: rerun };
}
