import { decide } from '@palimpsest/core/publication/publication.decider';
import type { ExistingJournal } from '@palimpsest/core/publication/publication.state';
import { planRecovery, type FileEvidence } from '@palimpsest/core/publication/recovery-plan';
import { loadJournal, type JournalAt } from '@palimpsest/projections/publications/publication-append';
import { commitPublicationEvents } from '../shared/commit-events';
import { openJournals } from '@palimpsest/projections/publications/publication.queries';
import type { WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { OpenedFiles } from './publication-files';
import { carryOut } from './recovery-actions';
import { sweepLeftovers } from './sweep-leftovers';
import { settleUnrecordedAtStart } from './unrecorded-journals';

/**
 * Settling journals that started and never recorded an outcome (a crash, a kill, a lost commit), from
 * the bytes on disk (core's planRecovery). Always under the lease of the journal's directories: the
 * caller holds it (a publication about to write the same files), or reconcileAtStart takes it.
 */

export interface Unsettled {
  journal_id: string;
  paths: string[];
}

/** Settle the started journals of these files (read under the lease); answer the ones left pending_reconcile (a person or a refresh decides). */
export async function settleOpenJournals(ctx: AppContext, files: readonly WorkspaceFileRow[]): Promise<Unsettled[]> {
  const byJournal = new Map<string, { state: string; paths: string[] }>();
  for (const f of files) {
    if (!f.open_journal_id || !f.journal_state) continue;
    byJournal.set(f.open_journal_id, { state: f.journal_state, paths: [...(byJournal.get(f.open_journal_id)?.paths ?? []), f.path] });
  }
  const unsettled: Unsettled[] = [];
  for (const [journal_id, o] of byJournal) {
    const state = o.state === 'started' ? await recoverJournal(ctx, journal_id) : o.state;
    if (state !== 'committed' && state !== 'rolled_back' && state !== 'resolved') unsettled.push({ journal_id, paths: o.paths });
  }
  return unsettled;
}

/** Settle one started journal (the caller holds its lease); returns the journal's state after. */
export async function recoverJournal(ctx: AppContext, journalId: string): Promise<string> {
  const root = ctx.workspace;
  const loaded = await ctx.db.transaction((tx) => loadJournal(tx, journalId));
  const j = loaded.state;
  if (!j.exists || j.state !== 'started') return j.exists ? j.state : 'missing';
  if (!root || root.dev !== j.root_dev || root.ino !== j.root_ino) return 'started'; // another root's journal: its own process settles it
  const files = openJournalFiles(root, j);
  try {
    return await settle(ctx, journalId, loaded, files);
  } finally {
    files?.close();
  }
}

/** The journal's destinations opened (null when one of them cannot be: the plan then works without the disk). */
function openJournalFiles(root: WorkspaceRoot, j: ExistingJournal): OpenedFiles | null {
  const opened = OpenedFiles.open(root, j.files.map((f) => ({ path: f.path, create: false })));
  return opened.kind === 'opened' ? opened.files : null;
}

/** Plan from the files, carry it out and record the outcome; `loaded` was read under the lease. */
async function settle(ctx: AppContext, journalId: string, loaded: JournalAt, files: OpenedFiles | null): Promise<string> {
  const j = loaded.state;
  if (!j.exists || j.state !== 'started') return j.exists ? j.state : 'missing';
  const plan = planRecovery(j, evidenceOf(j, files));
  if (files) carryOut(files, j.files, plan.actions);
  const now = ctx.clock.now();
  const d = decide({ ...plan.outcome, now }, j);
  if (d.kind === 'refused') return d.refusal.state ?? 'missing';
  const after = await ctx.store.transaction((tx) => commitPublicationEvents(tx, journalId, loaded, d.events, now, { command: 'ReconcilePublication' }));
  return after.state.exists ? after.state.state : 'missing';
}

function evidenceOf(j: ExistingJournal, files: OpenedFiles | null): FileEvidence[] {
  const hashes = files?.hashes();
  return j.files.map((f, i) => ({
    disk_sha256: hashes?.kind === 'read' ? hashes.sha256[i] : null,
    stage_present: files ? files.has(i, f.stage_name) : false,
    backup_present: files && f.backup_name ? files.has(i, f.backup_name) : false,
  }));
}

/**
 * At start-up: settle every journal left started by a process that is gone (a journal whose directories'
 * lease is held belongs to a live publication, and is left to it), and the journals a kill left on disk
 * only (unrecorded-journals.ts), then remove what settled journals left behind (sweep-leftovers.ts).
 */
export async function reconcileAtStart(ctx: AppContext): Promise<{ settled: number; busy: number; leftovers: number }> {
  const root = ctx.workspace;
  if (!root) return { settled: 0, busy: 0, leftovers: 0 };
  let settled = 0;
  let busy = 0;
  for (const row of await openJournals(ctx.db)) {
    const loaded = await ctx.db.transaction((tx) => loadJournal(tx, row.journal_id));
    if (!loaded.state.exists || loaded.state.root_dev !== root.dev || loaded.state.root_ino !== root.ino) continue;
    const files = openJournalFiles(root, loaded.state);
    try {
      const keys = files?.leaseKeys() ?? [];
      const lease = keys.length ? await ctx.leases.tryAcquire(keys) : null;
      if (keys.length && !lease) {
        busy++;
        continue;
      }
      try {
        // Read again under the lease: the journal's files are fixed when it starts, its state is not.
        await settle(ctx, row.journal_id, await ctx.db.transaction((tx) => loadJournal(tx, row.journal_id)), files);
        settled++;
      } finally {
        await lease?.release();
      }
    } finally {
      files?.close();
    }
  }
  settled += await settleUnrecordedAtStart(ctx);
  return { settled, busy, leftovers: await sweepLeftovers(ctx) };
}
