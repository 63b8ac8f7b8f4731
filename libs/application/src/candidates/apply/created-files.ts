import { createHash } from 'node:crypto';
import type { ContentEol } from '@palimpsest/core/reads/export-target';
import type { LineEndingStyle } from '@palimpsest/core/text/canonical-text';
import { toCanonicalLf } from '@palimpsest/core/text/canonical-text';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import { workspaceFileBound, workspacePublishSet } from '@palimpsest/core/target/target.decider';
import type { PublishMode } from '@palimpsest/core/target/target.events';
import type { TargetEvent } from '@palimpsest/core/target/target.events';
import type { FileIdentity, WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { FileToPublish } from '../../workspace-publication/publication-files';

/**
 * Files an apply creates. A caller that creates a file under an approval (write_file of a new path)
 * creates the file's target first, empty and unbound, and proposes its whole text; the apply then
 * publishes the caller's bytes as a new file (no-clobber: a file that appears meanwhile is kept and
 * answered external_write) and binds the target to it (WorkspaceFileBound) in the outcome transaction,
 * with the accepted text. Only the caller knows a target is meant for a new file: the candidate
 * itself is an ordinary whole replacement, and applied by anyone else it writes no file.
 */
export interface FileToCreate {
  target_id: string;
  path: string;
  /** The bytes as the caller gave them: their canonical text is the candidate's result. */
  bytes: Buffer;
  content_eol: ContentEol;
  style: LineEndingStyle;
}

const sha256 = (bytes: Buffer) => createHash('sha256').update(bytes).digest('hex');

/** The publication of a created file, checked to hold the text the apply accepts for its target. */
export function fileToCreate(c: FileToCreate, t: { target_id: string; result_version: number; result_hash: string }): FileToPublish {
  if (sha256Hex(toCanonicalLf(c.bytes.toString('utf8'))) !== t.result_hash) throw new Error(`apply: the bytes to create ${c.path} are not the text target ${t.target_id} accepts`);
  return { target_id: t.target_id, path: c.path, target_version: t.result_version, bytes: c.bytes, content_eol: c.content_eol, replaced_sha256: null, backup: false };
}

/**
 * Each created file, as just installed, bound to its target: the events each target's record is committed
 * with. The binding names the inode installed (`identity`, the stage's), not whatever the path holds by now:
 * another process may already have deleted or replaced it, which the next read then sees as drift.
 */
export function bindingsOfCreated(root: WorkspaceRoot | null, creates: readonly (FileToCreate & { identity: FileIdentity })[], now: string, publish: PublishMode = 'on_accept'): Map<string, TargetEvent[]> {
  const out = new Map<string, TargetEvent[]>();
  for (const c of creates) {
    if (!root) throw new Error(`apply: ${c.path} was created with no workspace root`);
    const sha = sha256(c.bytes);
    const source = { path: c.path, root_dev: root.dev, root_ino: root.ino, file_dev: c.identity.dev, file_ino: c.identity.ino, source_sha256: sha };
    out.set(c.target_id, [workspaceFileBound(c.target_id, source, c.style, now), ...workspacePublishSet(c.target_id, publish, now)]);
  }
  return out;
}
