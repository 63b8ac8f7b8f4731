import type { WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { AppContext } from '../app-context';
import { OpenedFiles } from './publication-files';
import { settleUnrecorded } from './unrecorded-journals';

/**
 * A bound file that is not its baseline is taken in as an external change by the file tools
 * (file-target.ts); first, under its directory's lease, what a killed process installed without a
 * committed journal is settled (unrecorded-journals.ts), so its bytes are put back instead of being
 * recorded as someone else's edit. True when something was settled: the caller reads the file again.
 * `leaseHeld`: the caller holds the directory's lease already (a writer that found the path bound under it).
 */
export async function settleBeforeIntake(ctx: AppContext, row: WorkspaceFileRow, leaseHeld = false): Promise<boolean> {
  const root = ctx.workspace;
  if (!root || row.root_dev !== root.dev || row.root_ino !== root.ino) return false; // another root's file: its own process settles it
  const opened = OpenedFiles.open(root, [{ path: row.path, create: false }]);
  if (opened.kind !== 'opened') return false;
  const files = opened.files;
  try {
    if (leaseHeld) return (await settleUnrecorded(ctx, files, [row], true)) > 0;
    const lease = await ctx.leases.acquire(files.leaseKeys());
    if (!lease) return false; // a publication holds the directory the whole wait: the intake goes on as before
    try {
      return (await settleUnrecorded(ctx, files, [row], true)) > 0;
    } finally {
      await lease.release();
    }
  } finally {
    files.close();
  }
}
