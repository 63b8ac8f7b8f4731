import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { SnapshotFile } from '@palimpsest/core/snapshot/snapshot-root';
import { SNAPSHOT_LIMITS } from '@palimpsest/protocol/catalog/operations/snapshots.operations';
import { hashWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import { walkWorkspace } from '@palimpsest/workspace/workspace-listing';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';

export interface DiskFile extends SnapshotFile {
  bytes: number;
}

/** The walk hands the event loop back this often. */
const YIELD_EVERY = 200;
const yieldToLoop = () => new Promise<void>((resolve) => setImmediate(resolve));

const tooMany = () =>
  invalidArgument('snapshot_too_large', `The workspace holds more than ${SNAPSHOT_LIMITS.MAX_SNAPSHOT_FILES} files a snapshot would capture: ignore generated trees in a .gitignore at the root, or serve a smaller root.`, {
    limit: SNAPSHOT_LIMITS.MAX_SNAPSHOT_FILES,
  });

/**
 * Every regular file under the root, as a recursive list_files walks them (.git, node_modules and what a
 * .gitignore excludes are skipped, links are never followed, what Palimpsest keeps is never seen), each
 * hashed in chunks. A file gone between the walk and its read is not part of the capture.
 */
export async function diskFiles(root: WorkspaceRoot): Promise<{ ok: true; files: DiskFile[] } | { ok: false; answer: InvalidArgument }> {
  const walk = walkWorkspace(root, undefined, { recursive: true, sizes: false });
  if (walk.kind === 'refused') throw new Error(`snapshot: the workspace root cannot be walked (${walk.refusal.code})`);
  const paths: string[] = [];
  try {
    for (const entry of walk.entries) {
      if (entry.type !== 'file') continue;
      if (paths.length === SNAPSHOT_LIMITS.MAX_SNAPSHOT_FILES) return { ok: false, answer: tooMany() };
      paths.push(entry.path);
    }
  } finally {
    walk.entries.return();
  }
  const files: DiskFile[] = [];
  for (const [i, path] of paths.entries()) {
    const hashed = await hashWorkspaceFileBounded(root, path, Number.MAX_SAFE_INTEGER);
    if (hashed.kind === 'hashed') files.push({ path, sha256: hashed.sha256, bytes: hashed.bytes });
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToLoop();
  }
  return { ok: true, files };
}
