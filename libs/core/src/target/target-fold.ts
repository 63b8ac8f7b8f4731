import { ChunkedText, TEXT_CHUNK_UNITS, type ChunkSplice } from '../text/chunked-text';
import { applyProposal } from '../transaction/apply-proposal';
import { spanSteps } from '../transaction/span-window';
import { replayAcceptance, TargetNotFound } from './target.decider';
import type { ProposalAcceptedData, TargetEvent } from './target.events';
import type { ExistingTarget, TargetState } from './target.state';

type TargetHead = Omit<ExistingTarget, 'content'>;

/** The fast path gave up after touching the text (restored, perhaps cut into other chunks). */
const RESTORED = Symbol('restored');

/**
 * evolve() over a whole stream, at the cost of its deltas: the same states, the same checks (every
 * acceptance re-applied under its recorded profile and its after_hash verified), the same
 * ReplayDivergence. The text is a ChunkedText: a span transaction is applied to the window of text it
 * reads (span-window.ts) and spliced back, and the whole text's SHA-256 resumes after the unchanged
 * chunks. Anything else, and anything that fails on the window, goes through replayAcceptance on the
 * whole text, so failures are reported by the very code evolve runs.
 */
export class TargetFold {
  private head: TargetHead | null = null;
  private text: ChunkedText;

  constructor(private readonly chunkUnits = TEXT_CHUNK_UNITS) {
    this.text = ChunkedText.of('', chunkUnits);
  }

  /** A fold that goes on from a state already folded, its text in the chunks it is stored as. */
  static resume(state: ExistingTarget, chunks: readonly string[]): TargetFold {
    const fold = new TargetFold();
    const { content: _content, ...head } = state;
    fold.head = head;
    fold.text = ChunkedText.ofChunks(chunks);
    return fold;
  }

  /** The state after the events so far (a snapshot: later events do not change it); its content is joined only when read. */
  get state(): TargetState {
    const head = this.head;
    if (!head) return { exists: false };
    const chunks = this.text.chunkTexts;
    let content: string | null = null;
    return {
      ...head,
      get content() {
        return (content ??= chunks.join(''));
      },
    };
  }

  /** The text's chunks (the layout the returned splices describe). */
  get chunks(): string[] {
    return this.text.chunkTexts;
  }

  /** Fold one event; returns how the chunks changed, or null when the text did not. Throws as evolve does. */
  apply(event: TargetEvent): ChunkSplice | null {
    switch (event.type) {
      case 'TargetInitialized': {
        const { content, ...d } = event.data;
        const before = this.text.chunkTexts.length;
        this.head = {
          exists: true,
          target_id: d.target_id,
          filename: d.filename,
          content_type: d.content_type,
          project_id: d.project_id,
          version: 0,
          current_hash: d.current_hash,
          active_editing_cycle_id: d.editing_cycle_id,
          source_line_endings: d.source_line_endings,
        };
        this.text = ChunkedText.of(content, this.chunkUnits);
        const insert = this.text.chunkTexts;
        return before === 0 && insert.length === 0 ? null : { from: 0, deleteCount: before, insert };
      }
      case 'ProposalAccepted': {
        const head = this.require(event.data.target_id);
        const splice = this.replay(event.data);
        this.head = { ...head, version: event.data.after_version, current_hash: event.data.after_hash };
        return splice;
      }
      case 'ProposalRejected':
        return null;
      case 'CheckpointSaved':
        this.head = { ...this.require(event.data.target_id), active_editing_cycle_id: event.data.new_editing_cycle_id };
        return null;
      case 'WorkspaceFileBound':
      case 'WorkspaceFileRefreshed':
      case 'WorkspacePublishSet':
      case 'ScopeObserved':
      case 'BundleObserved':
        this.require(event.data.target_id);
        return null;
    }
  }

  private require(targetId: string): TargetHead {
    if (!this.head) throw new TargetNotFound(targetId);
    return this.head;
  }

  private replay(data: ProposalAcceptedData): ChunkSplice {
    const before = this.text.chunkCount;
    const fast = this.replayWindow(data);
    if (fast !== null && fast !== RESTORED) return fast;
    const text = this.text.toString();
    const next = replayAcceptance(text, data);
    if (fast === null) return this.text.assign(next, commonPrefixUnits(text, next));
    // An undone fast path may have cut the chunks differently: the splice rewrites them all.
    return { from: 0, deleteCount: before, insert: this.text.assign(next, 0).insert };
  }

  /**
   * The span fast path: each operation applied to the window it reads, spliced back in order; the
   * merged splice when every step applies and the whole text's hash checks; else null (not a span
   * record: nothing touched) or RESTORED, and the caller runs the reference on the whole text.
   */
  private replayWindow(data: ProposalAcceptedData): ChunkSplice | typeof RESTORED | null {
    // A text of one chunk is its own window: the reference applies it at the same cost, with less work.
    if (this.text.chunkCount <= 1) return null;
    let record: Record<string, unknown>;
    try {
      record = JSON.parse(data.content);
    } catch {
      return null;
    }
    const recorded = { protocol_version: String(data.protocol_version), runtime_version: String(data.runtime_version), record };
    const steps = spanSteps(recorded);
    if (!steps) return null;
    const text = this.text;
    const edit = text.beginEdit();
    const giveUp = (): typeof RESTORED => {
      edit.undo();
      return RESTORED;
    };
    for (const step of steps) {
      if (step.start > text.length || step.end > text.length) return giveUp();
      const from = Math.max(0, step.start - step.before);
      const to = Math.min(text.length, step.end + step.after);
      const part = text.slice(from, to);
      const result = applyProposal({ ...recorded, record: step.recordAt(from) }, part);
      if (!result.ok) return giveUp();
      edit.splice(from, to, result.text, part);
    }
    return text.sha256() === data.after_hash ? (edit.done() ?? RESTORED) : giveUp();
  }
}

/** UTF-16 units the two texts share at their start. */
function commonPrefixUnits(a: string, b: string): number {
  const n = Math.min(a.length, b.length);
  let i = 0;
  while (i < n && a.charCodeAt(i) === b.charCodeAt(i)) i++;
  return i;
}
