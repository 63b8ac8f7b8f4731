import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { SnapshotFile } from '@palimpsest/core/snapshot/snapshot-root';
import { SNAPSHOT_LIMITS } from '@palimpsest/protocol/catalog/operations/snapshots.operations';
import { hashWorkspaceFileBounded } from '@palimpsest/workspace/workspace-file-reader';
import { fileStamp, walkWorkspace, type FileStamp } from '@palimpsest/workspace/workspace-listing';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { stampCacheOf, type StampCache } from './stamp-cache';

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
 * hashed in chunks, or its hash taken from the root's stamp cache when its stamp is unchanged and was not
 * racy (stamp-cache.ts). A file gone between the walk and its read is not part of the capture.
 */
export async function diskFiles(root: WorkspaceRoot): Promise<{ ok: true; files: DiskFile[] } | { ok: false; answer: InvalidArgument }> {
  const walk = walkWorkspace(root, undefined, { recursive: true, sizes: false });
  if (walk.kind === 'refused') throw new Error(`snapshot: the workspace root cannot be walked (${walk.refusal.code})`);
  // Stamped while the walk holds each directory: one lstat per file, through its directory's handle.
  const stamped: { path: string; stamp: FileStamp | null }[] = [];
  try {
    for (const entry of walk.entries) {
      if (entry.type !== 'file') continue;
      if (stamped.length === SNAPSHOT_LIMITS.MAX_SNAPSHOT_FILES) return { ok: false, answer: tooMany() };
      stamped.push({ path: entry.path, stamp: fileStamp(root, entry) });
    }
  } finally {
    walk.entries.return();
  }
  const cache = stampCacheOf(root);
  const files: DiskFile[] = [];
  for (const [i, { path, stamp }] of stamped.entries()) {
    const file = stamp ? (cache.lookup(path, stamp) ?? (await hashOf(root, path, stamp, cache))) : null;
    if (file) files.push({ path, ...file });
    if (i % YIELD_EVERY === YIELD_EVERY - 1) await yieldToLoop();
  }
  cache.keepOnly(new Set(stamped.map((f) => f.path)));
  return { ok: true, files };
}

async function hashOf(root: WorkspaceRoot, path: string, stamp: FileStamp, cache: StampCache): Promise<{ sha256: string; bytes: number } | null> {
  const readStartedMs = Date.now();
  const hashed = await hashWorkspaceFileBounded(root, path, Number.MAX_SAFE_INTEGER);
  if (hashed.kind !== 'hashed') return null;
  const file = { sha256: hashed.sha256, bytes: hashed.bytes };
  cache.remember(path, stamp, file, readStartedMs);
  return file;
}
