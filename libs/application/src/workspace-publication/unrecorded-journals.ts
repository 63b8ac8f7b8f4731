import { decide, evolve } from '@palimpsest/core/publication/publication.decider';
import type { PlannedFile, PublicationEvent } from '@palimpsest/core/publication/publication.events';
import { initialPublicationState } from '@palimpsest/core/publication/publication.state';
import { planRecovery } from '@palimpsest/core/publication/recovery-plan';
import { PUBLICATION_NAME_PREFIX } from '@palimpsest/core/workspace/workspace-path';
import { loadJournal, NEW_JOURNAL } from '@palimpsest/projections/publications/publication-append';
import { latestBindingsUnder, type WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { readEntry } from '@palimpsest/workspace/workspace-file-writer';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { commitPublicationEvents } from '../shared/commit-events';
import { OpenedFiles, stageName } from './publication-files';
import { carryOut } from './recovery-actions';

/**
 * Journals the log does not know. A file tool's write started on the caller's reads appends its
 * PublicationStarted in its outcome's transaction (publish-files.ts), so a process killed before that
 * COMMIT leaves its files on disk and nothing in the log: the backup, linked before anything is staged and
 * named `.palimpsest-<journal>-<n>-<sha256 of the staged bytes>.backup`, and maybe the stage. Under the
 * lease of the directory (at start; and before a publication or a file tool's intake of a file that is not
 * its baseline, where only a file holding the staged bytes is settled), such a journal is settled from
 * hashes alone, like a started write (planRecovery rolls it back):
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
 * Settle the unrecorded journals whose backups lie beside `files` (`rows[i]`: file i's binding, read under
 * the lease the caller holds on their directories). A backup belongs to a file whose baseline it holds;
 * which one, when several files of a directory share a baseline, the hashes decide:
 * - one of them holds the staged bytes: that one (restored);
 * - `partial` (a publication's or a file tool's look at its own files): nothing else is settled, since a
 *   file of the directory it did not open may be the backup's, and start-up sees them all;
 * - else the only candidate, or any one when all hold their baseline (nothing was installed anywhere);
 *   candidates with other bytes make it ambiguous, and the backup is left as found.
 * Returns how many journals were settled.
 */
export async function settleUnrecorded(ctx: AppContext, files: OpenedFiles, rows: readonly (WorkspaceFileRow | undefined)[], partial: boolean): Promise<number> {
  let settled = 0;
  for (const [i, leftover] of leftoversBeside(files, rows)) {
    const now = files.hashes(); // again for each: settling the one before may have put a file back
    const backup = readEntry(files.dests[i], leftover.backup_name);
    if (now.kind !== 'read' || backup.kind !== 'file') continue;
    const candidates = sameDirectory(files, i).filter((k) => rows[k]?.disk_sha256 === backup.sha256);
    const k = owner(candidates, leftover, now.sha256, rows, partial);
    if (k !== null && (await settleOne(ctx, files, k, rows[k]!, now.sha256[k] ?? null, leftover))) settled++;
  }
  return settled;
}

/** Each leftover backup once, with a file of its directory to reach it through. */
function leftoversBeside(files: OpenedFiles, rows: readonly (WorkspaceFileRow | undefined)[]): [number, Leftover][] {
  const seen = new Set<string>();
  const found: [number, Leftover][] = [];
  rows.forEach((row, i) => {
    const dir = dirKey(files, i);
    if (!row || seen.has(dir)) return;
    seen.add(dir);
    for (const leftover of leftoverBackups(files.entries(i))) found.push([i, leftover]);
  });
  return found;
}

const dirKey = (files: OpenedFiles, i: number) => `${files.dests[i]!.dir.dev}:${files.dests[i]!.dir.ino}`;

function sameDirectory(files: OpenedFiles, i: number): number[] {
  return files.dests.map((_d, k) => k).filter((k) => dirKey(files, k) === dirKey(files, i));
}

function owner(candidates: number[], leftover: Leftover, disk: (string | null)[], rows: readonly (WorkspaceFileRow | undefined)[], partial: boolean): number | null {
  const staged = candidates.find((k) => disk[k] === leftover.staged_sha256);
  if (staged !== undefined) return staged;
  if (partial || candidates.length === 0) return null;
  if (candidates.length === 1 || candidates.every((k) => disk[k] === rows[k]!.disk_sha256)) return candidates[0]!;
  return null;
}

async function settleOne(ctx: AppContext, files: OpenedFiles, i: number, row: WorkspaceFileRow, disk: string | null, leftover: Leftover): Promise<boolean> {
  if (!(await unknown(ctx, leftover.journal_id))) return false; // the log's: recover-journal.ts and the sweep settle it
  const staged = disk === leftover.staged_sha256 ? readEntry(files.dests[i]) : readEntry(files.dests[i], stageName(leftover.journal_id, leftover.index));
  const bytes = staged.kind === 'file' ? staged.bytes.length : 0;
  const planned = plannedOf(row, leftover, bytes);
  const started = startedEvent(ctx, planned, leftover.journal_id);
  const journal = evolve(initialPublicationState, started);
  if (!journal.exists) return false;
  const plan = planRecovery(journal, [{ disk_sha256: disk, stage_present: files.has(i, planned.stage_name), backup_present: true }]);
  const at = ctx.clock.now();
  const failed = decide({ ...plan.outcome, now: at }, journal);
  if (failed.kind === 'refused') return false;
  try {
    await ctx.store.transaction(async (tx) => {
      await commitPublicationEvents(tx, leftover.journal_id, NEW_JOURNAL, [started, ...failed.events], at, { command: 'ReconcilePublication', unrecorded: true });
      carryOut(files, [planned], plan.actions, () => i);
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

/**
 * At start: the latest binding of every path, a directory at a time, under the directory's lease (a held
 * lease is a live publication's, and left to it); a directory with no leftover backup costs one listing.
 */
export async function settleUnrecordedAtStart(ctx: AppContext): Promise<number> {
  const root = ctx.workspace;
  if (!root) return 0;
  const byDirectory = new Map<string, WorkspaceFileRow[]>();
  for (const row of await latestBindingsUnder(ctx.db, root)) {
    const dir = row.path.includes('/') ? row.path.slice(0, row.path.lastIndexOf('/')) : '';
    const rows = byDirectory.get(dir);
    if (rows) rows.push(row);
    else byDirectory.set(dir, [row]);
  }
  let settled = 0;
  for (const rows of byDirectory.values()) {
    if (hasLeftovers(root, rows[0]!)) settled += await settleDirectory(ctx, root, rows);
  }
  return settled;
}

/** Whether the directory of `row` holds a leftover backup: its one listing, through one file's directory handle. */
function hasLeftovers(root: WorkspaceRoot, row: WorkspaceFileRow): boolean {
  const opened = OpenedFiles.open(root, [{ path: row.path, create: false }]);
  if (opened.kind !== 'opened') return false; // the directory is gone or is no longer one: nothing of ours in it
  try {
    return leftoverBackups(opened.files.entries(0)).length > 0;
  } finally {
    opened.files.close();
  }
}

async function settleDirectory(ctx: AppContext, root: WorkspaceRoot, rows: WorkspaceFileRow[]): Promise<number> {
  const opened = OpenedFiles.open(root, rows.map((r) => ({ path: r.path, create: false })));
  if (opened.kind !== 'opened') return 0;
  const files = opened.files;
  try {
    const lease = await ctx.leases.tryAcquire(files.leaseKeys());
    if (!lease) return 0;
    try {
      return await settleUnrecorded(ctx, files, rows, false);
    } finally {
      await lease.release();
    }
  } finally {
    files.close();
  }
}
