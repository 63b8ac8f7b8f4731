import { createHash } from 'node:crypto';
import { canonicalizeUpload } from '@palimpsest/core/text/canonical-text';
import type { ContentEol } from '@palimpsest/core/reads/export-target';
import { initializeTargetCommand } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import { initialTargetState } from '@palimpsest/core/target/target.state';
import type { AppContext } from '../../app-context';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { contentTypeOf } from '@palimpsest/core/text/content-type';
import { newTargetCommit } from '../../shared/target-pipeline/target-pipeline';
import { publishFiles } from '../../workspace-publication/publish-files';
import type { FileTarget } from '../shared/file-target';
import { publicationRefusal } from '../shared/write-answers';
import { createdAnswer } from '../shared/write-receipt';

type Absent = Extract<FileTarget, { kind: 'absent' }>;

/**
 * write_file of a path with no file: its parents and the file through the engine's no-clobber create
 * (replaced_sha256 null: a file that appears meanwhile is kept and answered external_disk_drift). The
 * content is written byte for byte; the target is created in the outcome transaction, from the
 * installed file (InitializeTarget + WorkspaceFileBound with the staged inode's identity and the bytes'
 * hash), and commits with PublicationCompleted.
 */
export async function createFile(ctx: AppContext, t: Absent, content: string, correlationId: string | null = null): Promise<Result<OP.write_file>> {
  const targetId = ctx.ids.next();
  const bytes = Buffer.from(content, 'utf8');
  const sha = createHash('sha256').update(bytes).digest('hex');
  const eol = eolOfContent(content);
  const ids = { cycle: ctx.ids.next(), snapshot: ctx.ids.next() };
  const result = await publishFiles<{ kind: 'created'; version: number; current_hash: string }>(ctx, {
    kind: 'write',
    request_id: null,
    candidate_id: null,
    files: [{ target_id: targetId, path: t.path, target_version: 0, bytes, content_eol: eol, replaced_sha256: null, backup: false }],
    outcome: async (_tx, commit) => ({
      go: true as const,
      // Bound to the inode installed, not to whatever the path holds by now: another process may already
      // have deleted or replaced it, which the next read of the file then sees as a change on disk.
      finish: async (_installed, [installed]) => {
        const now = ctx.clock.now();
        const command = initializeTargetCommand(
          { now, target_id: targetId, filename: t.path, content, content_type: contentTypeOf(t.path), project_id: null, editing_cycle_id: ids.cycle, snapshot_id: ids.snapshot },
          {
            workspace: { path: t.path, root_dev: t.root.dev, root_ino: t.root.ino, file_dev: installed!.dev, file_ino: installed!.ino, source_sha256: sha },
            publish: ctx.workspacePublish,
          },
        );
        const d = decide(command, initialTargetState);
        if (d.kind === 'refused' || !d.state.exists) throw new Error(`write_file: the new target for ${t.path} was refused`);
        await commit(newTargetCommit(targetId, d, now, { command: 'InitializeTarget', tool: OP.write_file, ...(correlationId ? { correlation_id: correlationId } : {}) }));
        return { kind: 'created' as const, version: d.state.version, current_hash: d.state.current_hash };
      },
    }),
  });
  if (result.kind === 'stopped') throw new Error('write_file: a create never stops in its outcome');
  if (result.kind !== 'published') return publicationRefusal(result, t.path, null);
  const v = result.value;
  const installed = result.installed[0];
  const written = { attempt_id: null, journal_id: result.journal_id, bytes_written: installed.bytes_written, disk_sha256: installed.disk_sha256, content_eol: eol, cleanup_error: result.cleanup_error };
  return createdAnswer(t.path, targetId, written, v);
}

/** A new file's bytes are the content's: its endings are what it holds (mixed and none report LF). */
export function eolOfContent(content: string): ContentEol {
  const style = canonicalizeUpload(content).sourceLineEndings.style;
  return style === 'crlf' || style === 'cr' ? style : 'lf';
}
