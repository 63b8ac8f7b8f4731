import type { PlannedFile } from '@palimpsest/core/publication/publication.events';
import { settledJournalsWithFiles } from '@palimpsest/projections/publications/publication.queries';
import { openDestination } from '@palimpsest/workspace/workspace-destination';
import { removeEntry } from '@palimpsest/workspace/workspace-file-writer';
import type { AppContext } from '../app-context';

/**
 * A publication removes its backups after its journal commits; a process killed in between leaves a
 * `.palimpsest-<journal>-<n>-<sha256>.backup` that no later step names again. At start, the staged and backup
 * files of the most recently settled journals (committed, rolled back, resolved) are removed by their
 * exact names, so nothing else is ever touched. A pending_reconcile journal's files are its evidence and
 * stay. The names are unique to their journal, so no lease is needed to remove them.
 */

/** How many settled journals each start looks at: a crash can only strand the last ones its process finished. */
const RECENT_JOURNALS = 200;

export async function sweepLeftovers(ctx: AppContext): Promise<number> {
  const root = ctx.workspace;
  if (!root) return 0;
  let removed = 0;
  for (const journal of await settledJournalsWithFiles(ctx.db, RECENT_JOURNALS)) {
    for (const f of journal.files as PlannedFile[]) {
      const opened = openDestination(root, f.path, { createParents: false });
      if (opened.kind !== 'opened') continue; // the directory is gone or is no longer one: nothing of ours in it
      try {
        for (const name of [f.stage_name, f.backup_name]) if (name && removeEntry(opened.dest, name)) removed++;
      } finally {
        opened.dest.close();
      }
    }
  }
  return removed;
}
