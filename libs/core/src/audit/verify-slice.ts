import { readEventLine, type EventLine } from './bundle-lines';
import { chainLinkOfText, digestOfText, eventLeafData } from './event-chain';
import { MerkleBlocks, type MerkleBlock } from './merkle-blocks';
import { leafHash, leafHashHex, verifyInclusion } from './merkle-log';
import { ALTERED_LINK, LOWERCASE_HASH, noInclusionProof, notInSignedLog, notSignedAtLeaf, outOfPlace, versionGap } from './failure-reasons';

/**
 * The checks of a run of consecutive event lines that need nothing outside them: each line's form, each
 * stream's links after its first event in the run, each covered event's leaf or inclusion proof, the run's
 * Merkle blocks. What crosses the run's edges (a stream's first link in it, the leaf sequence, the tree)
 * goes back in the result for combineSlices to join, slice after slice, in file order. Plain data: it
 * crosses a worker boundary.
 */

export interface SliceContext {
  scope: 'log' | 'streams';
  /** The latest checkpoint's size and root (hex); size 0 when there is none. */
  latestSize: number;
  latestRoot: string | null;
}

export interface EventAt {
  global_position: number;
  stream_id: string;
  stream_version: number;
}

export interface EventFailureAt extends EventAt {
  reason: string;
}

export interface StreamInSlice {
  /** Its first event in the slice: linked to the stream's last link before the slice, at the seam. */
  first: EventAt & { digest: string; chain: string };
  lastVersion: number;
  lastChain: string;
  /** Its first failing event after the first in the slice; the stream is not checked past it. */
  failure: EventFailureAt | null;
}

export interface SliceResult {
  lines: number;
  /** The first line that is not an event line, by its index in the slice. */
  malformed: { line: number; reason: string } | null;
  streams: [string, StreamInSlice][];
  /** Events the latest checkpoint covers: the greatest position, and the first without a leaf. */
  lastCoveredPosition: number;
  firstUncovered: EventAt | null;
  /** Covered leaves in the slice: the first (and its event), the last, how many. */
  covered: { first: number | null; firstAt: EventAt | null; last: number | null; count: number };
  /** The first break of the leaf sequence inside the slice (the whole log's lines are in leaf order). */
  sequence: EventFailureAt | null;
  malformedLeaf: number | null;
  /** Among the covered events: the first (by position) whose leaf or inclusion proof fails. */
  leaf: EventFailureAt | null;
  blocks: MerkleBlock[];
}

const hex = (text: string) => Buffer.from(text, 'hex');

export class SliceVerifier {
  private lines = 0;
  private malformed: SliceResult['malformed'] = null;
  private readonly streams = new Map<string, StreamInSlice>();
  private lastCoveredPosition = 0;
  private firstUncovered: EventAt | null = null;
  private readonly covered: SliceResult['covered'] = { first: null, firstAt: null, last: null, count: 0 };
  private sequence: EventFailureAt | null = null;
  private malformedLeaf: number | null = null;
  private leaf: EventFailureAt | null = null;
  private readonly tree = new MerkleBlocks();
  private readonly root: Buffer | null;

  constructor(private readonly context: SliceContext) {
    this.root = context.latestRoot ? hex(context.latestRoot) : null;
  }

  line(text: string): void {
    const index = this.lines++;
    if (this.malformed) return;
    const read = readEventLine(text);
    if ('malformed' in read) {
      this.malformed = { line: index, reason: read.malformed };
      return;
    }
    if ('nonCanonical' in read) {
      const at = { global_position: read.at.position, stream_id: read.at.streamId, stream_version: read.at.streamVersion };
      this.failStream(at, `its line is altered: ${read.nonCanonical}`);
      return;
    }
    this.chain(read);
    this.leafOf(read);
  }

  private chain(e: EventLine): void {
    const stream = this.streams.get(e.streamId);
    if (!stream) {
      this.streams.set(e.streamId, { first: { ...eventAt(e), digest: digestOfText(e.text), chain: e.chain }, lastVersion: e.streamVersion, lastChain: e.chain, failure: null });
      return;
    }
    if (stream.failure) return;
    if (e.streamVersion !== stream.lastVersion + 1) {
      stream.failure = { ...eventAt(e), reason: versionGap(e.streamVersion, stream.lastVersion + 1) };
      return;
    }
    if (chainLinkOfText(stream.lastChain, e.text) !== e.chain) {
      stream.failure = { ...eventAt(e), reason: ALTERED_LINK };
      return;
    }
    stream.lastVersion = e.streamVersion;
    stream.lastChain = e.chain;
  }

  /** A non-canonical line fails its stream where it stands (a first event in the slice too: it has no digest to pass on). */
  private failStream(at: EventAt, reason: string): void {
    const stream = this.streams.get(at.stream_id);
    if (stream) stream.failure ??= { ...at, reason };
    else this.streams.set(at.stream_id, { first: { ...at, digest: '', chain: '' }, lastVersion: at.stream_version, lastChain: '', failure: { ...at, reason } });
  }

  private leafOf(e: EventLine): void {
    const { latestSize } = this.context;
    if (e.leafIndex === null) {
      if (!this.firstUncovered || e.position < this.firstUncovered.global_position) this.firstUncovered = eventAt(e);
      return;
    }
    if (e.leafIndex >= latestSize) return;
    if (e.position > this.lastCoveredPosition) this.lastCoveredPosition = e.position;
    const c = this.covered;
    if (c.last !== null && e.leafIndex !== c.last + 1) this.sequence ??= { ...eventAt(e), reason: outOfPlace(c.last + 1, e.leafIndex) };
    if (c.first === null) [c.first, c.firstAt] = [e.leafIndex, eventAt(e)];
    c.last = e.leafIndex;
    c.count++;
    const data = eventLeafData({ globalPosition: e.position, streamId: e.streamId, streamVersion: e.streamVersion }, e.chain);
    if (this.context.scope === 'log') this.signedLeaf(e, data);
    else this.included(e, data);
  }

  private signedLeaf(e: EventLine, data: string): void {
    const listed = e.proof;
    // A listed leaf the event's own hash matches is lowercase hex: its form is read only when they differ.
    if (typeof listed === 'string' && leafHashHex(data) === listed) {
      this.tree.push(e.leafIndex!, 1, listed);
      return;
    }
    if (typeof listed !== 'string' || !LOWERCASE_HASH.test(listed)) {
      this.malformedLeaf ??= e.leafIndex;
      return;
    }
    this.failLeaf(e, notSignedAtLeaf(e.leafIndex!));
    this.tree.push(e.leafIndex!, 1, listed);
  }

  private included(e: EventLine, data: string): void {
    const size = this.context.latestSize;
    const proof = e.proof;
    if (proof === null || typeof proof !== 'object' || proof.tree_size !== size || !Array.isArray(proof.path) || !proof.path.every((h) => typeof h === 'string')) {
      this.failLeaf(e, noInclusionProof(size));
      return;
    }
    if (!this.root || !verifyInclusion(e.leafIndex!, size, leafHash(data), proof.path.map(hex), this.root)) {
      this.failLeaf(e, notInSignedLog(e.leafIndex!, size));
    }
  }

  private failLeaf(e: EventLine, reason: string): void {
    if (!this.leaf || e.position < this.leaf.global_position) this.leaf = { ...eventAt(e), reason };
  }

  result(): SliceResult {
    return {
      lines: this.lines,
      malformed: this.malformed,
      streams: [...this.streams],
      lastCoveredPosition: this.lastCoveredPosition,
      firstUncovered: this.firstUncovered,
      covered: this.covered,
      sequence: this.sequence,
      malformedLeaf: this.malformedLeaf,
      leaf: this.leaf,
      blocks: this.tree.blocks(),
    };
  }
}

const eventAt = (e: EventLine): EventAt => ({ global_position: e.position, stream_id: e.streamId, stream_version: e.streamVersion });
