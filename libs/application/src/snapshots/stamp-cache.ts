import type { FileStamp } from '@palimpsest/workspace/workspace-listing';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';

/**
 * What a capture knows of each file it hashed: the stamp it had (size, mtime, inode) and the hash of its
 * bytes, so that the next capture re-hashes only the files whose stamp changed, as git's index does.
 *
 * Racy timestamps (git's "racy clean"): a file written within one timestamp tick of the moment it was
 * read can be written again in that same tick, same size, and keep its stamp. Such a stamp is kept but
 * never trusted: the file is hashed again at every capture until its mtime is older than the tick before
 * a read began. The tick is the filesystem's granularity: whole seconds (mtimes that are whole seconds:
 * FAT's 2 s, HFS+'s and ext3's 1 s) or the kernel's coarse clock (a few ms; 20 ms allowed).
 */

interface Known extends FileStamp {
  sha256: string;
  bytes: number;
  trusted: boolean;
}

const COARSE_TICK_MS = 2_000;
const FINE_TICK_MS = 20;

export const tickOf = (mtimeMs: number): number => (mtimeMs % 1000 === 0 ? COARSE_TICK_MS : FINE_TICK_MS);

export class StampCache {
  private readonly known = new Map<string, Known>();
  /** Files hashed (not served from the cache) since this cache was made: what a capture cost. */
  hashed = 0;

  /** The hash of a file whose stamp is the one recorded for it and was not racy then. */
  lookup(path: string, stamp: FileStamp): { sha256: string; bytes: number } | null {
    const k = this.known.get(path);
    return k && k.trusted && k.size === stamp.size && k.mtimeMs === stamp.mtimeMs && k.ino === stamp.ino ? { sha256: k.sha256, bytes: k.bytes } : null;
  }

  /** `readStartedMs`: the wall clock (the filesystem's clock) before the bytes were read. */
  remember(path: string, stamp: FileStamp, hashed: { sha256: string; bytes: number }, readStartedMs: number): void {
    this.hashed++;
    this.known.set(path, { ...stamp, ...hashed, trusted: stamp.mtimeMs < readStartedMs - tickOf(stamp.mtimeMs) });
  }

  /** Paths not seen by the last complete walk are dropped (deleted or ignored files). */
  keepOnly(paths: ReadonlySet<string>): void {
    for (const path of this.known.keys()) if (!paths.has(path)) this.known.delete(path);
  }
}

const caches = new WeakMap<WorkspaceRoot, StampCache>();

/** The one cache of a workspace root (an open root: a reopened one starts cold). */
export function stampCacheOf(root: WorkspaceRoot): StampCache {
  let cache = caches.get(root);
  if (!cache) caches.set(root, (cache = new StampCache()));
  return cache;
}
