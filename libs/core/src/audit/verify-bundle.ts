import { canonicalJson } from '../transaction/record-codec';
import type { SignedCheckpoint } from './checkpoint-note';
import type { AuditBundle, BundleEvent } from './audit-bundle';
import { chainLinkOfText, eventCanonicalTextOf, eventLeafData, GENESIS_LINK } from './event-chain';
import { leafHash, leafHashHex, rootOf, verifyInclusion } from './merkle-log';
import { verifyCheckpoints } from './verify-checkpoints';
import { rerunEngines } from './verify-engines';
import type { AuditFailure, AuditReport } from './audit-report';
import { ALTERED_LINK, leafWithoutEvent, LOWERCASE_HASH, noInclusionProof, notInSignedLog, notSignedAtLeaf, versionGap, WRITTEN_BESIDE_LOG } from './failure-reasons';

/**
 * Checks a bundle with nothing but itself and its verifier key: every checkpoint's signature, the
 * consistency of each checkpoint with the next, every chain link of every stream (from version 1, no
 * version missing), every event's inclusion in the latest checkpoint and, for a bundle of the whole log,
 * that its leaves are exactly the latest checkpoint's tree; then the recorded engines re-run over every
 * target stream (the replay verifier, offline). Stops at the first failure, naming it.
 */

export type { AuditFailure, AuditReport } from './audit-report';

export interface VerifyOptions {
  /** Re-run the recorded engines over every target stream (default true). */
  engines?: boolean;
}

/** `trusted`: a checkpoint note the verifier saw before (a log cut back past it shows only against it). */
export function verifyBundle(bundle: AuditBundle, trusted?: string, { engines = true }: VerifyOptions = {}): AuditReport {
  const report: AuditReport = { ok: false, failure: null, events: bundle.events?.length ?? 0, streams: 0, checkpoints: bundle.checkpoints?.length ?? 0, proven: 0, latest: null };
  const fail = (failure: AuditFailure): AuditReport => ({ ...report, failure });
  if (bundle.format !== 'palimpsest-audit-bundle/1' || !Array.isArray(bundle.events) || !Array.isArray(bundle.checkpoints)) {
    return fail({ kind: 'bundle', reason: 'not a palimpsest audit bundle' });
  }
  // 1. Checkpoints: signed by the key, growing, each consistent with the one before.
  const checked = verifyCheckpoints(bundle, trusted);
  if ('failure' in checked) return fail(checked.failure);
  const { latest } = checked;
  report.latest = latest ? { size: latest.size, root: latest.root.toString('hex') } : null;

  // 2. Chains: each stream whole from version 1, every link recomputed.
  const streams = new Map<string, BundleEvent[]>();
  for (const event of bundle.events) {
    const list = streams.get(event.stream_id);
    if (list) list.push(event);
    else streams.set(event.stream_id, [event]);
  }
  report.streams = streams.size;
  let sortedByPosition: readonly BundleEvent[] | null = null;
  const byPosition = () => (sortedByPosition ??= inPositionOrder(bundle.events));
  const firstBad: AuditFailure[] = [];
  const byVersion = new Map([...streams].map(([id, events]) => [id, inVersionOrder(events)]));
  for (const [streamId, ordered] of byVersion) {
    let previous = GENESIS_LINK;
    for (let i = 0; i < ordered.length; i++) {
      const event = ordered[i]!;
      if (event.stream_version !== i + 1) {
        firstBad.push({ ...eventAt(event), reason: versionGap(event.stream_version, i + 1) });
        break;
      }
      const link = chainLinkOfText(previous, canonicalTextOf(event));
      if (link !== event.chain_hash) {
        firstBad.push({ ...eventAt(event), reason: ALTERED_LINK });
        break;
      }
      previous = link;
    }
  }
  const earliest = firstBad.sort((a, b) => positionOf(a) - positionOf(b))[0];
  if (earliest) return fail(earliest);

  // An event the log skipped while it signed one after it was written beside the log, not through it.
  if (latest) {
    // A loop, not Math.max(...list): a million arguments overflow the stack.
    let lastCovered = 0;
    for (const e of bundle.events) if (e.leaf_index !== null && e.leaf_index < latest.size && e.global_position > lastCovered) lastCovered = e.global_position;
    const skipped = byPosition().find((e) => e.leaf_index === null && e.global_position < lastCovered);
    if (skipped) return fail({ ...eventAt(skipped), reason: WRITTEN_BESIDE_LOG });
  }
  if (latest && bundle.scope?.kind === 'log') {
    // 3. The whole log: the signed leaves make the root, and every event is the one signed at its leaf.
    const whole = checkWholeLog(bundle.leaves, latest, byPosition());
    if ('failure' in whole) return fail(whole.failure);
    report.proven = whole.proven;
  } else if (latest) {
    // 3. Some streams: each event the latest checkpoint covers is proven a leaf of its tree, where the bundle says.
    const proofs = new Map((bundle.inclusion ?? []).map((p) => [p.global_position, p]));
    for (const event of byPosition()) {
      if (event.leaf_index === null || event.leaf_index >= latest.size) continue;
      const proof = proofs.get(event.global_position);
      if (!proof || proof.tree_size !== latest.size) return fail({ ...eventAt(event), reason: noInclusionProof(latest.size) });
      const leaf = leafHash(eventLeafData(eventKey(event), event.chain_hash));
      if (!verifyInclusion(event.leaf_index, latest.size, leaf, proof.path.map(hex), latest.root)) {
        return fail({ ...eventAt(event), reason: notInSignedLog(event.leaf_index, latest.size) });
      }
      report.proven++;
    }
  }
  if (!engines) return { ...report, ok: true };
  // 4. The recorded engines reproduce every effect and after_hash.
  const { rerun, failure } = rerunEngines(byVersion);
  report.replayed = rerun;
  return failure ? fail(failure) : { ...report, ok: true };
}

/**
 * The leaves of a whole-log bundle against the latest checkpoint, and each event against its leaf. A leaf
 * an event's own hash matches is lowercase hex by construction, so the leaves are read for their form
 * only when something fails: a malformed leaf is named first, as the reason behind the rest.
 */
function checkWholeLog(leaves: readonly unknown[] | undefined, latest: SignedCheckpoint, events: readonly BundleEvent[]): { failure: AuditFailure } | { proven: number } {
  const list = (leaves ?? []).slice(0, latest.size);
  const failing = (otherwise: AuditFailure) => {
    const malformed = list.findIndex((leaf) => typeof leaf !== 'string' || !LOWERCASE_HASH.test(leaf));
    return { failure: malformed >= 0 ? { kind: 'bundle' as const, reason: `leaf ${malformed} is not a hash in lowercase hex` } : otherwise };
  };
  const shaped = list.every((leaf) => typeof leaf === 'string' && leaf.length === 64);
  if (!shaped || list.length < latest.size || !rootOf(list as string[]).equals(latest.root)) {
    return failing({ kind: 'bundle', reason: `its leaf hashes do not make the root of the latest checkpoint (size ${latest.size})` });
  }
  const covered = new Uint8Array(latest.size);
  let proven = 0;
  for (const event of events) {
    if (event.leaf_index === null || event.leaf_index >= latest.size) continue;
    if (leafHashHex(eventLeafData(eventKey(event), event.chain_hash)) !== list[event.leaf_index] || covered[event.leaf_index] === 1) {
      return failing({ ...eventAt(event), reason: notSignedAtLeaf(event.leaf_index) });
    }
    covered[event.leaf_index] = 1;
    proven++;
  }
  if (proven < latest.size) {
    return failing({ kind: 'bundle', reason: leafWithoutEvent(covered.indexOf(0), latest.size) });
  }
  return { proven };
}

export function describeFailure(failure: AuditFailure): string {
  switch (failure.kind) {
    case 'bundle':
      return failure.reason;
    case 'checkpoint':
      return `checkpoint ${failure.index}${failure.size === null ? '' : ` (size ${failure.size})`}: ${failure.reason}`;
    case 'stream':
      return `stream ${failure.stream_id}: ${failure.reason}`;
    case 'event':
      return `event at position ${failure.global_position} (${failure.stream_id} version ${failure.stream_version}): ${failure.reason}`;
  }
}

const hex = (text: string) => Buffer.from(text, 'hex');

/** The events in `key` order: as they are when they already are (an export's usually are), else sorted (a copy). */
function ordered(events: readonly BundleEvent[], key: (e: BundleEvent) => number): readonly BundleEvent[] {
  for (let i = 1; i < events.length; i++) if (key(events[i - 1]!) > key(events[i]!)) return [...events].sort((a, b) => key(a) - key(b));
  return events;
}
const inVersionOrder = (events: readonly BundleEvent[]) => ordered(events, (e) => e.stream_version);
const inPositionOrder = (events: readonly BundleEvent[]) => ordered(events, (e) => e.global_position);
const positionOf = (f: AuditFailure) => (f.kind === 'event' ? f.global_position : 0);
const eventAt = (e: BundleEvent) => ({ kind: 'event' as const, global_position: e.global_position, stream_id: e.stream_id, stream_version: e.stream_version });
const eventKey = (e: BundleEvent) => ({ globalPosition: e.global_position, streamId: e.stream_id, streamVersion: e.stream_version });

/** The text the event's digest covers (eventCanonicalText of the event as stored), without a copy of the event. */
function canonicalTextOf(e: BundleEvent): string {
  const meta = { streamId: e.stream_id, streamVersion: e.stream_version, type: e.type, schemaVersion: e.schema_version, recordedAt: e.recorded_at };
  return eventCanonicalTextOf(meta, canonicalJson(e.data === undefined ? null : e.data), canonicalJson(e.metadata));
}
