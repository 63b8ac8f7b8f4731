import { decide, evolve } from '@palimpsest/core/publication/publication.decider';
import type { PlannedFile, PublicationEvent } from '@palimpsest/core/publication/publication.events';
import type { ExistingJournal } from '@palimpsest/core/publication/publication.state';
import { initialPublicationState } from '@palimpsest/core/publication/publication.state';
import { planRecovery, type RecoveryAction } from '@palimpsest/core/publication/recovery-plan';
import { PUBLICATION_NAME_PREFIX } from '@palimpsest/core/workspace/workspace-path';
import { loadJournal, NEW_JOURNAL } from '@palimpsest/projections/publications/publication-append';
import { filesUnderLease } from '@palimpsest/projections/publications/publication.queries';
import { targetsBoundUnder, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { readEntry, restoreBackup } from '@palimpsest/workspace/workspace-file-writer';
import type { AppContext } from '../app-context';
import { commitPublicationEvents } from '../shared/commit-events';
import { OpenedFiles, stageName } from './publication-files';

/**
 * Journals the log does not know. A file tool's write started on the caller's reads appends its
 * PublicationStarted in its outcome's transaction (publish-files.ts), so a process killed before that
 * COMMIT leaves its files on disk and nothing in the log: the backup, linked before anything is staged and
 * named `.palimpsest-<journal>-<n>-<sha256 of the staged bytes>.backup`, and maybe the stage. Under the
 * lease of the directory (at start, or before a publication whose file is not its baseline), such a
 * journal is settled from hashes alone, like a started write (planRecovery rolls it back):
 * - the file holds the staged bytes: the backup is renamed back (the caller was never answered);
 * - the file holds the backup's bytes: nothing was installed; the stage and the backup are removed;
 * - anything else: the file is left as found and the journal pending_reconcile, its backup the evidence.
 * The journal is recorded as planned, as far as the disk tells (the target version the file's own plus
 * one, the bytes the staged file's), with its rollback, in one transaction whose disk steps run before
 * its COMMIT. It is appended at the stream's start, so a journal that did commit refuses it and nothing
 * on disk is touched.
 */

const LEFTOVER_BACKUP = new RegExp(`^${PUBLICATION_NAME_PREFIX.replace('.', '\\.')}([0-9a-f-]{36})-(\\d+)-([0-9a-f]{64})\\.backup$`);

interface Leftover {
  journal_id: string;
  index: number;
  staged_sha256: string;
  backup_name: string;
}

/** The leftover backups in a directory's names (no journal looked up yet). */
function leftoverBackups(names: readonly string[]): Leftover[] {
  const found: Leftover[] = [];
  for (const name of names) {
    const m = LEFTOVER_BACKUP.exec(name);
    if (m) found.push({ journal_id: m[1]!, index: Number(m[2]), staged_sha256: m[3]!, backup_name: name });
  }
  return found;
}

/**
 * Settle the unrecorded journals that left a backup of one of `files` (`rows[i]`: file i's binding, read
 * under the lease the caller holds). `drifted`: only files whose bytes are not their baseline are looked
 * at (a publication's check: a leftover beside the baseline loses nothing and waits for the next start).
 * Returns how many journals were settled.
 */
export async function settleUnrecorded(ctx: AppContext, files: OpenedFiles, rows: readonly (WorkspaceFileRow | undefined)[], drifted: boolean): Promise<number> {
  const now = files.hashes();
  if (now.kind !== 'read') return 0;
  let settled = 0;
  for (let i = 0; i < rows.length; i++) {
    const row = rows[i];
    if (!row || (drifted && now.sha256[i] === row.disk_sha256)) continue;
    for (const leftover of leftoverBackups(files.entries(i))) {
      if (await settleOne(ctx, files, i, row, now.sha256[i] ?? null, leftover)) settled++;
    }
  }
  return settled;
}

async function settleOne(ctx: AppContext, files: OpenedFiles, i: number, row: WorkspaceFileRow, disk: string | null, leftover: Leftover): Promise<boolean> {
  const backup = readEntry(files.dests[i], leftover.backup_name);
  // Another file's backup, or not one of ours any more: its bytes name the baseline it kept.
  if (backup.kind !== 'file' || backup.sha256 !== row.disk_sha256) return false;
  if (!(await unknown(ctx, leftover.journal_id))) return false; // the log's: recover-journal.ts and the sweep settle it
  const staged = disk === leftover.staged_sha256 ? readEntry(files.dests[i]) : readEntry(files.dests[i], stageName(leftover.journal_id, leftover.index));
  const bytes = staged.kind === 'file' ? staged.bytes.length : 0;
  const planned = plannedOf(row, leftover, bytes);
  const started = startedEvent(ctx, planned, leftover.journal_id);
  const journal = evolve(initialPublicationState, started) as ExistingJournal;
  const plan = planRecovery(journal, [{ disk_sha256: disk, stage_present: files.has(i, planned.stage_name), backup_present: true }]);
  const at = ctx.clock.now();
  const failed = decide({ ...plan.outcome, now: at }, journal);
  if (failed.kind === 'refused') return false;
  try {
    await ctx.store.transaction(async (tx) => {
      await commitPublicationEvents(tx, leftover.journal_id, NEW_JOURNAL, [started, ...failed.events], at, { command: 'ReconcilePublication', unrecorded: true });
      carryOut(files, i, planned, plan.actions);
    });
  } catch (e) {
    if (e instanceof StreamVersionConflictError) return false; // the journal committed meanwhile: it is the log's
    throw e;
  }
  return true;
}

async function unknown(ctx: AppContext, journalId: string): Promise<boolean> {
  return !(await ctx.db.transaction((tx) => loadJournal(tx, journalId))).state.exists;
}

function plannedOf(row: WorkspaceFileRow, leftover: Leftover, bytes: number): PlannedFile {
  const style = row.source_line_ending_style;
  return {
    target_id: row.target_id,
    path: row.path,
    target_version: row.disk_version + 1,
    staged_sha256: leftover.staged_sha256,
    replaced_sha256: row.disk_sha256,
    bytes,
    content_eol: style === 'crlf' || style === 'cr' ? style : 'lf',
    stage_name: stageName(leftover.journal_id, leftover.index),
    backup_name: leftover.backup_name,
  };
}

function startedEvent(ctx: AppContext, planned: PlannedFile, journalId: string): PublicationEvent {
  const root = ctx.workspace!;
  const d = decide(
    { type: 'StartPublication', now: ctx.clock.now(), journal_id: journalId, kind: 'write', request_id: null, candidate_id: null, root_dev: root.dev, root_ino: root.ino, files: [planned] },
    initialPublicationState,
  );
  if (d.kind === 'refused') throw new Error(`journal ${journalId}: ${d.refusal.detail}`);
  return d.events[0]!;
}

function carryOut(files: OpenedFiles, i: number, planned: PlannedFile, actions: RecoveryAction[]): void {
  for (const a of actions) {
    if (a.kind === 'remove_stage') files.remove(i, planned.stage_name);
    else if (a.kind === 'restore_backup') restoreBackup(files.dests[i], planned.backup_name!);
    else if (a.kind === 'remove_backup') files.remove(i, planned.backup_name);
  }
  files.syncDirectories();
}

/**
 * At start: every bound file's directory that holds a leftover backup is settled under its lease (a held
 * lease is a live publication's, and left to it). Each directory is listed once.
 */
export async function settleUnrecordedAtStart(ctx: AppContext): Promise<number> {
  const root = ctx.workspace;
  if (!root) return 0;
  const rows = await filesUnderLease(ctx.db, await targetsBoundUnder(ctx.db, { dev: root.dev, ino: root.ino }));
  const listed = new Map<string, boolean>();
  let settled = 0;
  for (const row of rows) {
    const opened = OpenedFiles.open(root, [{ path: row.path, create: false }]);
    if (opened.kind !== 'opened') continue;
    const files = opened.files;
    try {
      const key = `${files.dests[0]!.dir.dev}:${files.dests[0]!.dir.ino}`;
      if (!listed.has(key)) listed.set(key, leftoverBackups(files.entries(0)).length > 0);
      if (!listed.get(key)) continue;
      const lease = await ctx.leases.tryAcquire(files.leaseKeys());
      if (!lease) continue;
      try {
        settled += await settleUnrecorded(ctx, files, [row], false);
      } finally {
        await lease.release();
      }
    } finally {
      files.close();
    }
  }
  return settled;
}
