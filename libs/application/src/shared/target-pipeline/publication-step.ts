import type { ContentEol } from '@palimpsest/core/reads/export-target';
import type { InstalledFile } from '@palimpsest/core/publication/publication.events';
import type { LineEndingStyle } from '@palimpsest/core/text/canonical-text';
import type { TargetDecision } from '@palimpsest/core/target/target-decision';
import { lockTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { Committed } from '../commit-events';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../../app-context';
import { fileBytesOf } from '../../workspace-publication/file-bytes';
import type { FileToPublish } from '../../workspace-publication/publication-files';
import { publishFiles, type PublishResult } from '../../workspace-publication/publish-files';
import { acceptedHash, commitDecided, type AcceptedChange } from './target-pipeline';

/**
 * The pipeline's publication step: an accepted change to a target bound to a workspace file reaches the
 * file before it is recorded. Nothing is recorded before the file is installed: the new text is published
 * through the journal (kind 'write', the replaced file backed up), and in the outcome transaction the
 * target's row is locked; when it is the very row the change was decided on, that decision commits as is
 * (decided once), with PublicationCompleted riding in its statement. A row that moved meanwhile has the
 * same command decided again on it, and only the same acceptance on the same version commits. A file
 * changed outside Palimpsest is found by the journal's drift checks before anything is written, so an
 * accepted change never waits unpublished behind the caller's back.
 */

export interface PublishedFile {
  path: string;
  /** The file's bytes the change replaces (its binding's baseline). */
  baseline: string;
  /** The style the file was bound with (a target recorded without line endings takes it). */
  style: LineEndingStyle | null;
}

export interface ChangeToPublish<S> {
  change: AcceptedChange;
  file: PublishedFile;
  /** Recorded with the change (the command, the tool). */
  metadata: Record<string, unknown>;
  /** The same command decided again on a row that moved since `change` was decided, and the `now` it was decided with. */
  decideAgain: (tx: Sql, locked: TargetRow, change: AcceptedChange) => Promise<{ decision: TargetDecision; decidedAt: string }>;
  /**
   * Writers of one file take turns: when the journal cannot start on the row the change was decided on
   * (another writer got the lease first), the change decided again under the lease on the text that writer
   * left, or why it stops (`stop`, the caller's). Without it a moved target ends the step as 'moved'.
   */
  rebase?: (change: AcceptedChange) => Promise<AcceptedChange | { stop: S }>;
}

export type PublicationStepResult<S> =
  | { kind: 'published'; change: AcceptedChange; committed: Committed; journal_id: string; installed: InstalledFile; content_eol: ContentEol; cleanup_error: string | null }
  /** The target moved before the file was installed: nothing was written or recorded. */
  | { kind: 'moved'; change: AcceptedChange; version: number | null }
  | { kind: 'stopped'; stop: S }
  | { kind: 'unpublished'; result: Exclude<PublishResult<never>, { kind: 'published' | 'stopped' }> };

type Value = { kind: 'moved'; version: number | null } | { kind: 'committed'; committed: Committed; change: AcceptedChange };

export async function publishChange<S>(ctx: AppContext, step: ChangeToPublish<S>): Promise<PublicationStepResult<S>> {
  const targetId = step.change.on.target_id;
  let change = step.change;
  let planned = fileOf(change, step.file);
  const rebase = step.rebase;
  const result = await publishFiles<Value | { kind: 'stop'; stop: S }>(ctx, {
    kind: 'write',
    request_id: null,
    candidate_id: null,
    files: [planned.publish],
    // The journal starts on the row the change was decided on, by one guarded statement.
    plannedOn: [{ target_id: targetId, version: change.on.version }],
    rebase: rebase
      ? async () => {
          const again = await rebase(change);
          if ('stop' in again) return { go: false, answer: { kind: 'stop' as const, stop: again.stop } };
          change = again;
          planned = fileOf(change, step.file);
          return { go: true, files: [planned.publish] };
        }
      : undefined,
    outcome: async (tx, commit) => {
      const locked = await lockTargetRow(tx, targetId, ctx.contents);
      const moved = (version: number | null) => ({ go: false as const, answer: { kind: 'moved' as const, version }, detail: `target ${targetId} moved from version ${change.on.version} to ${version ?? 'nothing'} before ${step.file.path} was installed` });
      if (!locked) return moved(null);
      // Decided once: the lock shows the very row the change was decided on. Only a row that moved meanwhile is decided again.
      const unmoved = locked.stream_version === change.on.stream_version;
      const again = unmoved ? { decision: change.decided, decidedAt: change.decidedAt } : await step.decideAgain(tx, locked, change);
      const d = again.decision;
      if (d.kind !== 'decided' || locked.version !== change.on.version || acceptedHash(d) !== acceptedHash(change.decided)) return moved(locked.version);
      const done: AcceptedChange = { ...change, decided: d, decidedAt: again.decidedAt, on: locked };
      return { go: true, finish: async () => ({ kind: 'committed' as const, change: done, committed: await commitDecided({ commit }, locked, d, again.decidedAt, step.metadata) }) };
    },
  });
  if (result.kind === 'stopped') {
    const v = result.answer;
    return v.kind === 'stop' ? { kind: 'stopped', stop: v.stop } : { kind: 'moved', change, version: v.kind === 'moved' ? v.version : null };
  }
  if (result.kind !== 'published') return { kind: 'unpublished', result };
  const v = result.value;
  if (v.kind !== 'committed') return v.kind === 'moved' ? { kind: 'moved', change, version: v.version } : { kind: 'stopped', stop: v.stop };
  return { kind: 'published', change: v.change, committed: v.committed, journal_id: result.journal_id, installed: result.installed[0]!, content_eol: planned.content_eol, cleanup_error: result.cleanup_error };
}

function fileOf(change: AcceptedChange, file: PublishedFile): { publish: FileToPublish; content_eol: ContentEol } {
  const bytes = fileBytesOf(change.after.content, change.on.source_line_endings, file.style);
  const publish = { target_id: change.on.target_id, path: file.path, target_version: change.after.version, bytes: bytes.bytes, content_eol: bytes.content_eol, replaced_sha256: file.baseline, backup: true };
  return { publish, content_eol: bytes.content_eol };
}
