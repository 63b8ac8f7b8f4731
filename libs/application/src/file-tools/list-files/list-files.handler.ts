import { elementSentBytes, MAX_RESULT_BYTES, sentBytes } from '@palimpsest/protocol/result-bytes';
import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { FILE_READ_LIMITS } from '@palimpsest/protocol/catalog/operations/file-reads.operations';
import { listedFile, walkWorkspace, type ListedEntry } from '@palimpsest/workspace/workspace-listing';
import type { AppContext } from '../../app-context';
import { pathRefusalAnswer, type WorkspaceFileNotFound } from '../../shared/workspace-text';
import { noWorkspace } from '../file-tool-answers';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface ListFilesInput {
  path?: string;
  recursive?: boolean;
  glob?: string;
}

export interface ListFilesAnswer {
  status: 'ok';
  path: string;
  entries: ListedEntry[];
  truncated: boolean;
}

/** The walk hands the event loop back this often, so a listing of a large tree never holds it long. */
const YIELD_EVERY = 500;

const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

/**
 * list_files (seed 004): a directory's entries (the root when path is omitted or "."), recursively on
 * request, in walk order (sorted component by component). At most MAX_LIST_ENTRIES entries and under
 * MAX_RESULT_BYTES as sent (result-bytes.ts); truncated when the walk had more. A path naming a regular file lists that
 * file alone (the seed is silent; an agent that lists a file to see its size gets it, as from `ls`).
 */
export async function listFiles(ctx: AppContext, input: ListFilesInput): Promise<ListFilesAnswer | InvalidArgument | WorkspaceFileNotFound> {
  if (!ctx.workspace) return noWorkspace(OP.list_files);
  const walk = walkWorkspace(ctx.workspace, input.path, { recursive: input.recursive === true, glob: input.glob });
  if (walk.kind === 'refused') {
    const file = walk.refusal.code === 'PATH_NOT_FOUND' && input.path !== undefined ? listedFile(ctx.workspace, input.path, input.glob) : null;
    return file ? { status: 'ok', ...file, truncated: false } : pathRefusalAnswer(walk.refusal, 'path');
  }
  const entries: ListedEntry[] = [];
  let bytes = sentBytes({ status: 'ok', path: walk.path, entries: [], truncated: true });
  let truncated = false;
  let seen = 0;
  try {
    for (const { path, type, size } of walk.entries) {
      const entry: ListedEntry = size === undefined ? { path, type } : { path, type, size };
      bytes += elementSentBytes(entry);
      if (entries.length === FILE_READ_LIMITS.MAX_LIST_ENTRIES || bytes > MAX_RESULT_BYTES) {
        truncated = true;
        break;
      }
      entries.push(entry);
      if (++seen % YIELD_EVERY === 0) await yieldToLoop();
    }
  } finally {
    walk.entries.return();
  }
  return { status: 'ok', path: walk.path, entries, truncated };
}
