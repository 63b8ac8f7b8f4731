import type { PlannedFile } from '@palimpsest/core/publication/publication.events';
import type { RecoveryAction } from '@palimpsest/core/publication/recovery-plan';
import { restoreBackup } from '@palimpsest/workspace/workspace-file-writer';
import type { OpenedFiles } from './publication-files';

/**
 * A recovery plan's actions on disk, in order, then the directories fsync'd. Confirming durability is that
 * fsync: a staged file's bytes were fsync'd before it was installed, so what a crash can still lose is the
 * rename or link, which lives in the directory. `planned[a.file]` is the journal's file an action names;
 * `opened(a.file)` its place among `files` (the same index unless the caller opened other files beside it).
 */
export function carryOut(files: OpenedFiles, planned: readonly PlannedFile[], actions: readonly RecoveryAction[], opened = (file: number) => file): void {
  for (const a of actions) {
    const f = planned[a.file]!;
    const i = opened(a.file);
    switch (a.kind) {
      case 'remove_stage':
        files.remove(i, f.stage_name);
        break;
      case 'restore_backup':
        if (f.backup_name) restoreBackup(files.dests[i]!, f.backup_name);
        break;
      case 'remove_created':
        files.remove(i, files.dests[i]!.name);
        break;
      case 'remove_backup':
        files.remove(i, f.backup_name);
        break;
      case 'confirm_durability':
        break;
    }
  }
  files.syncDirectories();
}
