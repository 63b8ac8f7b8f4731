import { ChunkedText, TEXT_CHUNK_UNITS, type ChunkSplice } from '../text/chunked-text';
import { effectsFit, RESTORED, spliceEffects } from '../transaction/text-effect';
import { AFTER_HASH_MISMATCH, ReplayDivergence } from './replay-divergence';
import { TargetNotFound } from './target.decider';
import type { ProposalAcceptedData, TargetEvent } from './target.events';
import type { ExistingTarget, TargetState } from './target.state';

type TargetHead = Omit<ExistingTarget, 'content'>;

/**
 * When a fold checks that the text hashes to an acceptance's after_hash: after each acceptance (replay,
 * the online rebuild: the default), or only for the text it is left with, when `checkText()` is called
 * (a rebuild, which stores that text alone: the rest of what it writes comes from the events).
 */
export type HashCheck = 'each' | 'last';

/**
 * evolve() over a whole stream, at the cost of its deltas: the same states, the same checks (every
 * acceptance's effects applied and its after_hash verified; with hashCheck 'last', the text it is left
 * with), the same ReplayDivergence. The text is a
 * ChunkedText: effects are spliced into the chunks they touch, and the whole text's SHA-256 resumes
 * after the unchanged chunks. The engine never runs here.
 */
export class TargetFold {
  private head: TargetHead | null = null;
  private text: ChunkedText;
  /** With hashCheck 'last': the acceptance the text must still be checked against. */
  private unchecked: { attemptId: string; afterHash: string } | null = null;

  constructor(
    private readonly chunkUnits = TEXT_CHUNK_UNITS,
    private readonly hashCheck: HashCheck = 'each',
  ) {
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

  /** The text as it is folded (the replay verifier re-runs engines on windows of it, and leaves it as it was). */
  get buffer(): ChunkedText {
    return this.text;
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
        this.unchecked = null;
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

  /**
   * With hashCheck 'last': throws ReplayDivergence (naming the last acceptance) unless the text hashes to
   * the last acceptance's after_hash. Which acceptance diverged first, a fold that checks each one says.
   */
  checkText(): void {
    const last = this.unchecked;
    if (!last) return;
    if (this.text.sha256() !== last.afterHash) throw new ReplayDivergence(last.attemptId, AFTER_HASH_MISMATCH);
    this.unchecked = null;
  }

  private require(targetId: string): TargetHead {
    if (!this.head) throw new TargetNotFound(targetId);
    return this.head;
  }

  private replay(data: ProposalAcceptedData): ChunkSplice | null {
    if (!Array.isArray(data.effects) || !effectsFit(data.effects, this.text.length)) {
      throw new ReplayDivergence(data.attempt_id, 'the recorded effects do not fit the text they apply to');
    }
    const checked = this.hashCheck === 'each';
    const splice = spliceEffects(this.text, data.effects, () => !checked || this.text.sha256() === data.after_hash);
    if (splice === RESTORED) throw new ReplayDivergence(data.attempt_id, AFTER_HASH_MISMATCH);
    if (!checked) this.unchecked = { attemptId: data.attempt_id, afterHash: data.after_hash };
    return splice;
  }
}
