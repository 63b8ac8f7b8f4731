import { createHash } from 'node:crypto';
import { readTargetRow } from '@palimpsest/projections/content/target-row.queries';
import { filesBehindTargets, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { AppContext } from '../../app-context';
import { fileBytesOf } from '../../workspace-publication/file-bytes';

/**
 * A bound file behind its target: a change was accepted and not yet published (publish on_save), so
 * workspace status says pending. The read tools then answer from the target's text, in the bytes the
 * file will hold once published, and say so (`pending`): read_file never shows what status contradicts,
 * and edit_file, which matches on the target's text, matches what read_file showed. A file changed
 * outside Palimpsest since (drifted) is read as on disk.
 */

export interface PendingFile {
  path: string;
  target_file_id: string;
  version: number;
  disk_version: number;
}

export const isBehind = (row: WorkspaceFileRow & { version: number }) => row.version > row.disk_version && row.journal_state === null;

const sha256 = (bytes: Uint8Array) => createHash('sha256').update(bytes).digest('hex');

/** A file behind its target: the bytes it will hold once published, and the baseline the disk must still hold for them to stand in. */
interface BehindText {
  disk_sha256: string;
  bytes: Buffer;
  pending: PendingFile;
}

async function behindText(ctx: AppContext, row: WorkspaceFileRow & { version: number }): Promise<BehindText | null> {
  const target = await readTargetRow(ctx.db, row.target_id, ctx.contents);
  if (!target) return null;
  const { bytes } = fileBytesOf(target.content, target.source_line_endings, row.source_line_ending_style);
  return { disk_sha256: row.disk_sha256, bytes, pending: { path: row.path, target_file_id: row.target_id, version: target.version, disk_version: row.disk_version } };
}

/** The target's text as the file's bytes, when the disk still holds what was last published (else null: read the disk). */
export async function behindBytes(ctx: AppContext, row: WorkspaceFileRow & { version: number }, disk: Uint8Array): Promise<BehindText | null> {
  if (!isBehind(row) || sha256(disk) !== row.disk_sha256) return null;
  return behindText(ctx, row);
}

/** Bound files behind their target that one grep searches in their target's text; past it, as on disk. */
const MAX_BEHIND_FILES = 1000;

/**
 * For a search over many files (grep): the files under `prefix` behind their target, read ahead, and the
 * substitution that puts each one's target text in place of bytes still equal to its baseline.
 */
export async function behindSubstitution(ctx: AppContext, prefix: string | null): Promise<{ substitute: (path: string, bytes: Uint8Array) => Uint8Array; used: PendingFile[] }> {
  const texts = new Map<string, BehindText>();
  for (const row of await filesBehindTargets(ctx.db, ctx.workspace!, prefix, MAX_BEHIND_FILES)) {
    const text = await behindText(ctx, row);
    if (text) texts.set(row.path, text);
  }
  const used: PendingFile[] = [];
  const substitute = (path: string, bytes: Uint8Array): Uint8Array => {
    const t = texts.get(path);
    if (!t || sha256(bytes) !== t.disk_sha256) return bytes;
    used.push(t.pending);
    return t.bytes;
  };
  return { substitute, used };
}
