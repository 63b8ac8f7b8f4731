import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../../app-context';
import { linesOf, type ReadFileAnswer, type ReadFileInput } from '../../file-tools/read-file/file-lines';
import type { WorkspaceFileNotFound } from '../../shared/workspace-text';
import { fileBytesOf } from '../../workspace-publication/file-bytes';
import { boundTargetOfPath } from './bound-path';
import { targetAsOf, type AsOfAnswer } from './text-as-of';

export type ReadFileAsOfAnswer = ReadFileAnswer & { as_of: AsOfAnswer & { target_file_id: string } };

/**
 * read_file as of a point of the bound file's history: its target's text at that version, in the bytes
 * the file held then (the line endings it was bound with), sliced into lines as read_file does.
 */
export async function readFileAsOf(ctx: AppContext, root: WorkspaceRoot, input: ReadFileInput): Promise<ReadFileAsOfAnswer | InvalidArgument | WorkspaceFileNotFound> {
  const bound = await boundTargetOfPath(ctx, root, input.path);
  if (!bound.ok) return bound.answer;
  const found = await targetAsOf(ctx, bound.row.target_id, input.as_of);
  if (found.kind === 'refused') return found.answer;
  if (found.kind !== 'as_of') throw new Error(`read_file as_of: the target bound to ${bound.row.path} is missing`);
  const { row, as_of } = found.value;
  const { bytes } = fileBytesOf(row.content, row.source_line_endings, bound.row.source_line_ending_style);
  return linesOf(bound.row.path, bytes, input, { as_of: { target_file_id: row.target_id, ...as_of } });
}
