import type { PlannedFile } from '@palimpsest/core/publication/publication.events';
import { crashPoint, type CrashPointName } from '@palimpsest/testing/crash-point';
import { installNew, installOver, linkBackup, restoreBackup } from '@palimpsest/workspace/workspace-file-writer';
import type { Drifted, OpenedFiles } from './publication-files';

/** Installing a publication's staged files, and undoing that when one of them cannot be installed. */

const INSTALL_POINTS: readonly CrashPointName[] = ['publication.after_install.1', 'publication.after_install.2'];

export type InstallIo =
  | { kind: 'installed' }
  | { kind: 'failed'; state: 'rolled_back' | 'pending_reconcile'; reason: 'external_disk_drift' | 'io_error'; detail: string; drifted: Drifted[] };

/**
 * Backup (when planned, unless `linked` before staging) and install each file in order; on a failure, undo
 * the ones already installed, newest first.
 */
export function installAll(files: OpenedFiles, planned: PlannedFile[], linked = false): InstallIo {
  const done: number[] = [];
  for (let i = 0; i < planned.length; i++) {
    const f = planned[i];
    try {
      if (f.replaced_sha256 === null) {
        if (installNew(files.dests[i], f.stage_name) === 'exists') {
          const state = undoInstalls(files, planned, done);
          removeStages(files, planned);
          const observed = files.hashes();
          const drifted = [{ path: f.path, target_id: f.target_id, expected_sha256: null, observed_sha256: observed.kind === 'read' ? observed.sha256[i] : null }];
          return { kind: 'failed', state, reason: 'external_disk_drift', detail: `${f.path} appeared on disk before it could be created; it was kept`, drifted };
        }
      } else {
        if (f.backup_name && !linked) linkBackup(files.dests[i], f.backup_name);
        installOver(files.dests[i], f.stage_name);
      }
    } catch (e) {
      const state = undoInstalls(files, planned, done);
      removeStages(files, planned);
      if (state === 'rolled_back') removeBackups(files, planned); // a pending file's backup is its evidence
      return { kind: 'failed', state, reason: 'io_error', detail: `installing ${f.path} failed: ${String(e)}`, drifted: [] };
    }
    done.push(i);
    if (i < INSTALL_POINTS.length) crashPoint(INSTALL_POINTS[i]);
  }
  return { kind: 'installed' };
}

/** Put back what was installed (backups renamed back, created files removed); pending_reconcile when one cannot be. */
function undoInstalls(files: OpenedFiles, planned: PlannedFile[], done: number[]): 'rolled_back' | 'pending_reconcile' {
  let state: 'rolled_back' | 'pending_reconcile' = 'rolled_back';
  for (const i of [...done].reverse()) {
    const f = planned[i];
    try {
      if (f.replaced_sha256 === null) files.remove(i, files.dests[i].name);
      else if (f.backup_name) restoreBackup(files.dests[i], f.backup_name);
      else state = 'pending_reconcile';
    } catch {
      state = 'pending_reconcile';
    }
  }
  return state;
}

export function removeStages(files: OpenedFiles, planned: PlannedFile[]): void {
  planned.forEach((f, i) => files.remove(i, f.stage_name));
}

/** Once the journal committed the backups are not needed; failing to remove one is reported, not fatal. */
export function removeBackups(files: OpenedFiles, planned: PlannedFile[]): string | null {
  try {
    planned.forEach((f, i) => files.remove(i, f.backup_name));
    return null;
  } catch (e) {
    return String(e);
  }
}
