import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import { verifyBundle, type AuditReport } from '@palimpsest/core/audit/verify-bundle';
import { exportAuditBundle } from '@palimpsest/projections/audit/audit-export.queries';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { AppContext } from '../app-context';

/**
 * `palimpsest export` and `palimpsest verify` on a live store: a bundle of the whole log or of targets'
 * streams, and the whole log verified as it stands in the database (rows altered in SQL are named).
 */

export interface BundleScope {
  /** Target UUIDs; empty or absent: the whole log. */
  targets?: string[];
}

export async function exportBundle(ctx: AppContext, verifierKey: string, scope: BundleScope = {}): Promise<AuditBundle> {
  const streams = scope.targets?.length ? scope.targets.map((id) => targetStreamId(id.toLowerCase())) : null;
  return exportAuditBundle(ctx.db, verifierKey, streams);
}

/** The live store, the whole log, checked as a bundle is (against `trusted`, a checkpoint seen before, when given). */
export async function verifyStore(ctx: AppContext, verifierKey: string, trusted?: string): Promise<AuditReport> {
  return verifyBundle(await exportAuditBundle(ctx.db, verifierKey, null), trusted);
}
