import { createHash } from 'node:crypto';
import type { ContentEol } from '@palimpsest/core/reads/export-target';
import type { PlannedFile } from '@palimpsest/core/publication/publication.events';
import { PUBLICATION_NAME_PREFIX, type WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import { openDestination, type Destination } from '@palimpsest/workspace/workspace-destination';
import { listEntries, readEntry, removeEntry, syncDirectory } from '@palimpsest/workspace/workspace-file-writer';
import type { LeaseKey } from '@palimpsest/workspace/workspace-lease';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';

/**
 * The files of one publication, opened: each workspace path's destination directory held by the
 * non-following walk, so every later step names its files through that handle. Closed as one.
 */

/** What a caller asks to publish: a target's text as the bytes its file should hold. */
export interface FileToPublish {
  target_id: string;
  /** Canonical workspace path (the binding's). */
  path: string;
  target_version: number;
  bytes: Buffer;
  content_eol: ContentEol;
  /** The file's baseline (workspace_files.disk_sha256); null when the publication creates the file. */
  replaced_sha256: string | null;
  /** Keep a hard-link backup of the replaced file until the journal commits (a multi-file apply). */
  backup: boolean;
}

/** A file whose bytes are not its baseline: changed outside Palimpsest (observed null: gone). */
export interface Drifted {
  path: string;
  target_id: string;
  expected_sha256: string | null;
  observed_sha256: string | null;
}

/** Names in the destination directory that only Palimpsest writes; the path rules reserve the prefix. */
export const stageName = (journalId: string, i: number) => `${PUBLICATION_NAME_PREFIX}${journalId}-${i}.stage`;
/**
 * A backup's name carries the hash of the bytes installed over it: a journal that commits only with its
 * outcome (publish-files.ts) is not in the log when its process dies, and recovery then tells from this
 * name alone whether the file holds those bytes (unrecorded-journals.ts).
 */
export const backupName = (journalId: string, i: number, stagedSha256: string) => `${PUBLICATION_NAME_PREFIX}${journalId}-${i}-${stagedSha256}.backup`;

export function plannedFiles(journalId: string, files: readonly FileToPublish[]): PlannedFile[] {
  return files.map((f, i) => {
    const staged_sha256 = createHash('sha256').update(f.bytes).digest('hex');
    return {
      target_id: f.target_id,
      path: f.path,
      target_version: f.target_version,
      staged_sha256,
      replaced_sha256: f.replaced_sha256,
      bytes: f.bytes.length,
      content_eol: f.content_eol,
      stage_name: stageName(journalId, i),
      backup_name: f.backup && f.replaced_sha256 !== null ? backupName(journalId, i, staged_sha256) : null,
    };
  });
}

export class OpenedFiles {
  private constructor(readonly dests: Destination[]) {}

  /** Open every destination (creating missing parents only for a file the publication creates), or the first refusal. */
  static open(root: WorkspaceRoot, files: readonly { path: string; create: boolean }[]):
    | { kind: 'opened'; files: OpenedFiles }
    | { kind: 'refused'; index: number; refusal: WorkspacePathRefusal } {
    const dests: Destination[] = [];
    for (let i = 0; i < files.length; i++) {
      const opened = openDestination(root, files[i].path, { createParents: files[i].create });
      if (opened.kind === 'refused') {
        for (const d of dests) d.close();
        return { kind: 'refused', index: i, refusal: opened.refusal };
      }
      dests.push(opened.dest);
    }
    return { kind: 'opened', files: new OpenedFiles(dests) };
  }

  /** The lease keys: one per physical destination directory. */
  leaseKeys(): LeaseKey[] {
    return this.dests.map((d) => d.dir);
  }

  /**
   * SHA-256 of each file now (null: absent) and the mode a file installed over it gets (the replaced
   * file's permission bits; null for a new file, which follows the umask), or the refusal of the first
   * that is not a regular file.
   */
  hashes(): { kind: 'read'; sha256: (string | null)[]; modes: (number | null)[] } | { kind: 'refused'; index: number; refusal: WorkspacePathRefusal } {
    const sha256: (string | null)[] = [];
    const modes: (number | null)[] = [];
    for (let i = 0; i < this.dests.length; i++) {
      const entry = readEntry(this.dests[i]);
      if (entry.kind === 'refused') return { kind: 'refused', index: i, refusal: entry.refusal };
      // A file over the size limit is never read: it names itself by its size, which no baseline hash equals.
      sha256.push(entry.kind === 'file' ? entry.sha256 : entry.kind === 'too_large' ? `too_large:${entry.size}` : null);
      modes.push(entry.kind === 'absent' ? null : entry.identity.mode & 0o7777);
    }
    return { kind: 'read', sha256, modes };
  }

  has(i: number, name: string): boolean {
    const entry = readEntry(this.dests[i], name);
    return entry.kind === 'file' || entry.kind === 'too_large';
  }

  /** The names in file i's destination directory. */
  entries(i: number): string[] {
    return listEntries(this.dests[i]);
  }

  remove(i: number, name: string | null): void {
    if (name !== null) removeEntry(this.dests[i], name);
  }

  /** fsync each distinct destination directory once: what makes the renames and links durable. */
  syncDirectories(): void {
    const seen = new Set<string>();
    for (const d of this.dests) {
      const key = `${d.dir.dev}:${d.dir.ino}`;
      if (seen.has(key)) continue;
      seen.add(key);
      syncDirectory(d);
    }
  }

  close(): void {
    for (const d of this.dests) d.close();
  }
}
