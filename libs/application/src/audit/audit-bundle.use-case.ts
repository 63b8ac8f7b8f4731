import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import { verifyBundle, type AuditReport } from '@palimpsest/core/audit/verify-bundle';
import { exportAuditBundle } from '@palimpsest/projections/audit/audit-export.queries';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import { targetsBoundUnder } from '@palimpsest/projections/workspace-files.queries';
import type { AppContext } from '../app-context';

/**
 * `palimpsest export` and `palimpsest verify` on a live store: a bundle of the whole log or of targets'
 * streams, and the whole log verified as it stands in the database (rows altered in SQL are named).
 */

export interface BundleScope {
  /** Target UUIDs; with neither this nor `workspace`: the whole log. */
  targets?: string[];
  /** Every target bound to a file of the configured workspace (beside `targets`, if any). */
  workspace?: boolean;
}

export class NoWorkspaceError extends Error {
  constructor() {
    super('no workspace is configured: set PALIMPSEST_WORKSPACE_ROOT (or --workspace) to export a workspace, or name --target ids');
  }
}

export async function exportBundle(ctx: AppContext, verifierKey: string, scope: BundleScope = {}): Promise<AuditBundle> {
  const targets = new Set((scope.targets ?? []).map((id) => id.toLowerCase()));
  if (scope.workspace) {
    if (!ctx.workspace) throw new NoWorkspaceError();
    for (const id of await targetsBoundUnder(ctx.db, ctx.workspace)) targets.add(id);
  }
  const whole = !scope.workspace && targets.size === 0;
  return exportAuditBundle(ctx.db, verifierKey, whole ? null : [...targets].map(targetStreamId));
}

/** The live store, the whole log, checked as a bundle is (against `trusted`, a checkpoint seen before, when given). */
export async function verifyStore(ctx: AppContext, verifierKey: string, trusted?: string): Promise<AuditReport> {
  return verifyBundle(await exportAuditBundle(ctx.db, verifierKey, null), trusted);
}
