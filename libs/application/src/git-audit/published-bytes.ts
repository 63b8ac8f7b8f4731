import type { FileBinding, LoggedFileRecord } from '@palimpsest/projections/git-commits/git-commits.queries';
import { readTargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext } from '../app-context';
import { foldTextAt } from '../history/as-of/text-as-of';
import { fileBytesOf } from '../workspace-publication/file-bytes';

/**
 * The bytes a bound file held at a version of its target, as the workspace publication writes them:
 * the text folded from the log at that version, in the file's line endings (fileBytesOf, as read_file
 * as_of reads an earlier version), UTF-8 with whatever the text holds (a BOM is a character of it).
 * The reactor publishes just after the acceptance, so the current row's record is the one in force.
 */
export async function publishedBytesAt(ctx: AppContext, binding: FileBinding, version: number): Promise<Buffer> {
  const row = await readTargetRow(ctx.db, binding.target_id, ctx.contents);
  if (!row) throw new Error(`the target ${binding.target_id} bound to ${binding.path} is missing`);
  const text = version === row.version ? row.content : await foldTextAt(ctx, binding.target_id, version);
  return fileBytesOf(text, row.source_line_endings, binding.source_line_ending_style).bytes;
}

/**
 * The same bytes for a verifier: the text folded at that version, encoded with the line-ending record the
 * log's events held at the acceptance (fileRecordAt), never the read models' current row.
 */
export async function loggedBytesAt(ctx: AppContext, targetId: string, version: number, record: LoggedFileRecord): Promise<Buffer> {
  const text = await foldTextAt(ctx, targetId, version);
  return fileBytesOf(text, record.source_line_endings, record.binding?.source_line_ending_style ?? null).bytes;
}
