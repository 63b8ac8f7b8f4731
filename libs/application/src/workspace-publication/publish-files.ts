import { decide } from '@palimpsest/core/publication/publication.decider';
import type { PublicationCommand } from '@palimpsest/core/publication/publication.commands';
import type {
  Durability,
  InstalledFile,
  PlannedFile,
  PublicationFailureReason,
  PublicationKind,
} from '@palimpsest/core/publication/publication.events';
import type { WorkspacePathRefusal } from '@palimpsest/core/workspace/workspace-path';
import { loadJournal, NEW_JOURNAL, publicationAppend, startGuard, type JournalAt } from '@palimpsest/projections/publications/publication-append';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { filesUnderLease } from '@palimpsest/projections/publications/publication.queries';
import type { WorkspaceFileRow } from '@palimpsest/projections/workspace-files.queries';
import type { EventAppender, StoreTx } from '@palimpsest/store/event-store';
import { crashPoint } from '@palimpsest/testing/crash-point';
import { linkBackup, readEntry, restoreBackup, stageFile } from '@palimpsest/workspace/workspace-file-writer';
import type { FileIdentity } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';
import { commitPublicationEvents, transactionCommitting, type CommitTargetEvents, type RidingAppend } from '../shared/commit-events';
import { installAll, removeBackups, removeStages } from './install-files';
import { OpenedFiles, plannedFiles, type Drifted, type FileToPublish } from './publication-files';
import { recoverJournal, settleOpenJournals } from './recover-journal';
import { settleUnrecorded } from './unrecorded-journals';

/**
 * One publication of target text to workspace files, under the lease of every destination directory:
 *
 *   lease (waiting its turn) → settle any unfinished journal of these files → drift check → PublicationStarted commits →
 *   stage each file (its bytes, fsync'd) → drift check again → [outcome transaction: lock and verify →
 *   backup and install each file → fsync the directories → the caller's database outcome and
 *   PublicationCompleted → COMMIT] → release → remove the backups.
 *
 * The database outcome and PublicationCompleted commit together, so a journal still 'started' after a
 * crash is one whose outcome never committed: recover-journal.ts settles it from the bytes on disk.
 *
 * One durable commit: a write of one existing file started on the caller's reads (plannedOn, a file tool's
 * edit) does not commit PublicationStarted on its own. It links the backup first, then stages, and
 * PublicationStarted, guarded as the lone statement would have been, is appended in the outcome
 * transaction under its lock, before the install; the three events commit as one. A kill before that
 * COMMIT leaves the new bytes (or the old) and a backup the log knows nothing of; its name carries the
 * journal and the staged bytes' hash, and unrecorded-journals.ts settles it from the hashes (at start,
 * or under the lease when a file is not its baseline). Created files (no backup to be found by) and
 * multi-file publications keep the separate start. The crash points (crash-point.ts) sit between the steps.
 */

export interface PublishRequest<T> {
  kind: PublicationKind;
  request_id: string | null;
  candidate_id: string | null;
  files: FileToPublish[];
  /**
   * Under the lease, before the drift check: the files decided again on their targets as they are now (a
   * file tool's change, made on the text the previous holder of the lease left), or the answer that ends
   * the publication before it starts. Without it the files are published as given.
   */
  rebase?: () => Promise<{ go: true; files: FileToPublish[] } | { go: false; answer: T }>;
  /**
   * The target versions the files were planned on. With them the publication first starts on the
   * baselines the caller read, by one guarded statement (no read under the lease, no rebase); only when
   * that guard refuses (a baseline moved, a journal is open, a target moved) does it read them under the
   * lease and go the long way.
   */
  plannedOn?: { target_id: string; version: number }[];
  /**
   * In the outcome transaction, before any file is installed: lock what the outcome writes and check it
   * still holds. `go: false` ends the publication with nothing installed; `finish` runs after
   * installation, in the same transaction, and records the database outcome; `identities` are the
   * installed files' (each the inode staged, which rename and link keep), in the order of `files`.
   */
  outcome(tx: StoreTx, commit: CommitTargetEvents): Promise<{ go: false; answer: T; detail: string } | { go: true; finish: (installed: InstalledFile[], identities: FileIdentity[]) => Promise<T> }>;
}

export type PublishResult<T> =
  | { kind: 'published'; journal_id: string; installed: InstalledFile[]; value: T; cleanup_error: string | null }
  | { kind: 'durability_uncertain'; journal_id: string; installed: InstalledFile[]; detail: string }
  | { kind: 'outcome_uncertain'; journal_id: string; installed: InstalledFile[]; detail: string }
  /** Ended by the request's rebase (journal_id null: nothing started) or its outcome check. */
  | { kind: 'stopped'; journal_id: string | null; answer: T }
  | { kind: 'busy'; paths: string[]; waited_ms: number }
  | { kind: 'pending'; journals: { journal_id: string; paths: string[] }[] }
  | { kind: 'refused_path'; index: number; refusal: WorkspacePathRefusal }
  | { kind: 'drift'; journal_id: string | null; drifted: Drifted[] }
  | { kind: 'io_error'; journal_id: string; state: 'rolled_back' | 'pending_reconcile'; detail: string };

export async function publishFiles<T>(ctx: AppContext, req: PublishRequest<T>): Promise<PublishResult<T>> {
  const root = ctx.workspace;
  if (!root) throw new Error('publishFiles needs a configured workspace');
  const opened = OpenedFiles.open(root, req.files.map((f) => ({ path: f.path, create: f.replaced_sha256 === null })));
  if (opened.kind === 'refused') return { kind: 'refused_path', index: opened.index, refusal: opened.refusal };
  const files = opened.files;
  try {
    const lease = await ctx.leases.acquire(files.leaseKeys());
    if (!lease) return { kind: 'busy', paths: req.files.map((f) => f.path), waited_ms: ctx.leases.waitMs };
    let publication: Publication<T> | null = null;
    let result: PublishResult<T> | 'refused' = 'refused';
    try {
      if (req.plannedOn && req.files.every((f) => f.replaced_sha256 !== null)) {
        publication = new Publication(ctx, req, files);
        result = await publication.run(req.plannedOn);
      }
      if (result === 'refused') {
        const ids = req.files.map((f) => f.target_id);
        let under = await filesUnderLease(ctx.db, ids);
        if (under.some((f) => f.open_journal_id)) {
          const unsettled = await settleOpenJournals(ctx, under);
          if (unsettled.length) return { kind: 'pending', journals: unsettled };
          under = await filesUnderLease(ctx.db, ids); // settling moved baselines
        }
        // A file that is not its baseline may hold what a killed riding journal installed (unrecorded-journals.ts).
        await settleUnrecorded(ctx, files, req.files.map((f) => under.find((u) => u.target_id === f.target_id)), true);
        let request = req;
        if (req.rebase) {
          const rebased = await req.rebase();
          if (!rebased.go) return { kind: 'stopped', journal_id: null, answer: rebased.answer };
          request = { ...req, files: rebased.files };
        }
        publication = new Publication(ctx, withCurrentBaselines(request, under), files);
        result = (await publication.run()) as PublishResult<T>;
      }
    } finally {
      await lease.release();
    }
    // The backups' names are the journal's own, so removing them needs no lease: the next writer goes on meanwhile.
    if (result.kind !== 'published') return result;
    crashPoint('publication.before_cleanup');
    return { ...result, cleanup_error: removeBackups(files, publication!.planned) };
  } finally {
    files.close();
  }
}

/**
 * The caller read each file's baseline before the lease was taken; another publication of the same file
 * (this process, another gateway) may have moved it since, and the file then holds what Palimpsest itself
 * published, which is no drift. So the drift checks compare against the baseline as it is under the lease.
 */
function withCurrentBaselines<T>(req: PublishRequest<T>, under: WorkspaceFileRow[]): PublishRequest<T> {
  const current = new Map(under.map((f) => [f.target_id, f.disk_sha256]));
  const files = req.files.map((f) => (f.replaced_sha256 === null ? f : { ...f, replaced_sha256: current.get(f.target_id) ?? f.replaced_sha256 }));
  return { ...req, files };
}

/** The steps under the lease, with the journal they record. */
class Publication<T> {
  private readonly journalId: string;
  readonly planned: PlannedFile[];
  private journal: JournalAt = NEW_JOURNAL;
  private identities: FileIdentity[] = [];

  constructor(
    private readonly ctx: AppContext,
    private readonly req: PublishRequest<T>,
    private readonly files: OpenedFiles,
  ) {
    this.journalId = ctx.ids.next();
    this.planned = plannedFiles(this.journalId, req.files);
  }

  /** 'refused': started on the caller's reads (plannedOn), which no longer hold; nothing was recorded, and nothing of it is left on disk. */
  async run(plannedOn?: { target_id: string; version: number }[]): Promise<PublishResult<T> | 'refused'> {
    const before = this.drift();
    if (before.kind === 'refused_path') return plannedOn ? 'refused' : before;
    if (before.drifted.length) return plannedOn ? 'refused' : { kind: 'drift', journal_id: null, drifted: before.drifted };
    const root = this.ctx.workspace!;
    const start: PublicationCommand = {
      type: 'StartPublication', now: this.ctx.clock.now(), journal_id: this.journalId, kind: this.req.kind, request_id: this.req.request_id,
      candidate_id: this.req.candidate_id, root_dev: root.dev, root_ino: root.ino, files: this.planned,
    };
    const baselines = this.req.files.map((f) => ({ target_id: f.target_id, disk_sha256: f.replaced_sha256! }));
    if (plannedOn && this.rides()) {
      this.deferredStart = { command: start, guard: startGuard(baselines, plannedOn) };
      try {
        linkBackup(this.files.dests[0], this.planned[0].backup_name!); // before the stage: every leftover of this journal has it
      } catch {
        return 'refused'; // the long way starts its journal first and answers an install's IO failure as such
      }
    } else if (plannedOn) {
      try {
        await this.record(start, this.ctx.store, startGuard(baselines, plannedOn));
      } catch (e) {
        if (e instanceof StreamVersionConflictError) return 'refused';
        throw e;
      }
    } else {
      await this.record(start);
    }
    if (!this.deferredStart) crashPoint('publication.after_started');
    try {
      this.identities = this.req.files.map((f, i) => stageFile(this.files.dests[i], this.planned[i].stage_name, f.bytes, before.modes[i]).identity);
    } catch (e) {
      if (this.deferredStart) return this.withdraw(); // the long way records the failure in a journal of its own
      removeStages(this.files, this.planned);
      await this.fail('rolled_back', 'io_error', `staging failed: ${String(e)}`);
      return { kind: 'io_error', journal_id: this.journalId, state: 'rolled_back', detail: String(e) };
    }
    crashPoint('publication.after_stage');
    const after = this.drift();
    if (after.kind === 'refused_path' || after.drifted.length) {
      if (this.deferredStart) return this.withdraw();
      removeStages(this.files, this.planned);
      const paths = after.kind === 'refused_path' ? after.refusal.message : after.drifted.map((d) => d.path).join(', ');
      await this.fail('rolled_back', 'external_disk_drift', `changed on disk while the publication was staged: ${paths}`);
      return after.kind === 'refused_path' ? after : { kind: 'drift', journal_id: this.journalId, drifted: after.drifted };
    }
    return this.installAndRecord();
  }

  /**
   * The journal's start rides in the outcome's transaction (one durable commit) for one file that exists
   * and is backed up: a kill before that COMMIT leaves the backup, which unrecorded-journals.ts finds by
   * its name. A created file has no backup to be found by, so its journal starts on its own first.
   */
  private rides(): boolean {
    return this.planned.length === 1 && this.planned[0].replaced_sha256 !== null && this.planned[0].backup_name !== null;
  }

  /** The start that commits with the outcome (rides()), and its guard, evaluated there under the lock. */
  private deferredStart: { command: PublicationCommand; guard: ReturnType<typeof startGuard> } | null = null;

  /** A riding journal that will not start: its stage and backup go, and the long way reads again under the lease. */
  /** The one-commit journal settled under the lease still held, as start-up would settle it; null when the store fails too. */
  private async settleUnrecordedNow(): Promise<'rolled_back' | 'pending_reconcile' | null> {
    try {
      const rows = await filesUnderLease(this.ctx.db, [this.req.files[0]!.target_id]);
      if ((await settleUnrecorded(this.ctx, this.files, rows, true)) === 0) return null;
      const settled = (await this.ctx.db.transaction((tx) => loadJournal(tx, this.journalId))).state;
      return settled.exists && settled.state === 'rolled_back' ? 'rolled_back' : 'pending_reconcile';
    } catch {
      return null;
    }
  }

  private withdraw(): 'refused' {
    removeStages(this.files, this.planned);
    removeBackups(this.files, this.planned);
    return 'refused';
  }

  /** The files that are not their baseline, and the modes the drift read found (what staging gives each file). */
  private drift(): { kind: 'read'; drifted: Drifted[]; modes: (number | null)[] } | Extract<PublishResult<T>, { kind: 'refused_path' }> {
    const now = this.files.hashes();
    if (now.kind === 'refused') return { kind: 'refused_path', index: now.index, refusal: now.refusal };
    const drifted = this.req.files
      .map((f, i) => ({ path: f.path, target_id: f.target_id, expected_sha256: f.replaced_sha256, observed_sha256: now.sha256[i] }))
      .filter((d) => d.observed_sha256 !== d.expected_sha256);
    return { kind: 'read', drifted, modes: now.modes };
  }

  /** `guard`: one statement outside any transaction, refused (StreamVersionConflictError) unless the guard holds. */
  private async record(command: PublicationCommand, tx?: EventAppender, guard?: ReturnType<typeof startGuard>): Promise<void> {
    this.journal = await commitPublicationEvents(tx ?? this.ctx.store, this.journalId, this.journal, this.decided(command), command.now, { command: command.type }, guard);
  }

  private decided(command: PublicationCommand) {
    const d = decide(command, this.journal.state);
    if (d.kind === 'refused') throw new Error(`publication ${this.journalId}: ${d.refusal.code} (${d.refusal.detail})`);
    return d.events;
  }

  /**
   * The journal's completion as an append that rides in the statement of the outcome's target commit
   * (taken at most once); the journal moves on once the outcome transaction has it.
   */
  private riding: { spec: RidingAppend; after: JournalAt } | null = null;

  private completionRider(command: PublicationCommand): void {
    const events = this.decided(command);
    this.riding = events.length === 1 ? publicationAppend(this.journalId, this.journal, events[0]!, command.now, { command: command.type }) : null;
  }

  private takeRider(): RidingAppend[] {
    const rider = this.riding;
    if (!rider) return [];
    this.riding = null;
    this.journal = rider.after;
    return [rider.spec];
  }

  private async fail(state: 'rolled_back' | 'pending_reconcile', reason: PublicationFailureReason, detail: string, tx?: EventAppender): Promise<void> {
    if (!this.journal.state.exists) return; // a riding start never committed: nothing to record it failed
    const outcome = state === 'rolled_back' ? ('not_applied' as const) : ('unknown' as const);
    const files = this.planned.map((f) => ({ target_id: f.target_id, path: f.path, disk_sha256: f.replaced_sha256, outcome }));
    await this.record({ type: 'FailPublication', now: this.ctx.clock.now(), state, reason, detail, files, reconciled: false }, tx);
  }

  private async installAndRecord(): Promise<PublishResult<T> | 'refused'> {
    const journal_id = this.journalId;
    let installed: InstalledFile[] = [];
    let touched = false;
    let committing = false;
    try {
      const result = await transactionCommitting(this.ctx, async (tx, commit): Promise<PublishResult<T>> => {
        // The outcome's target commit carries the journal's completion in its own statement when it can.
        const prepared = await this.req.outcome(tx, (input, riders = []) => commit(input, [...riders, ...this.takeRider()]));
        if (!prepared.go) {
          removeStages(this.files, this.planned);
          if (this.deferredStart) removeBackups(this.files, this.planned);
          await this.fail('rolled_back', 'target_moved', prepared.detail, tx);
          return { kind: 'stopped', journal_id: this.deferredStart ? null : journal_id, answer: prepared.answer };
        }
        // Under the outcome's lock: the start's guard (baselines, no open journal, target versions) decides here.
        if (this.deferredStart) await this.record(this.deferredStart.command, tx, this.deferredStart.guard);
        touched = true;
        const io = installAll(this.files, this.planned, this.deferredStart !== null);
        if (io.kind === 'failed') {
          await this.fail(io.state, io.reason, io.detail, tx);
          return io.reason === 'external_disk_drift'
            ? { kind: 'drift', journal_id, drifted: io.drifted }
            : { kind: 'io_error', journal_id, state: io.state, detail: io.detail };
        }
        let durability: Durability = 'confirmed';
        let syncError = '';
        try {
          this.files.syncDirectories();
        } catch (e) {
          durability = 'uncertain';
          syncError = String(e);
        }
        crashPoint('publication.after_fsync');
        installed = this.planned.map((f) => ({ target_id: f.target_id, path: f.path, disk_sha256: f.staged_sha256, bytes_written: f.bytes, durability }));
        // Seed 003: when the directory's durability is uncertain the database outcome is not recorded.
        const complete: PublicationCommand = { type: 'CompletePublication', now: this.ctx.clock.now(), files: installed, reconciled: false };
        this.completionRider(complete);
        const value = durability === 'confirmed' ? await prepared.finish(installed, this.identities) : null;
        if (this.riding) {
          this.riding = null; // no target commit took it along: recorded on its own
          await this.record(complete, tx);
        }
        crashPoint('publication.before_outcome');
        committing = true;
        if (value === null) return { kind: 'durability_uncertain', journal_id, installed, detail: `the directory fsync failed: ${syncError}` };
        return { kind: 'published', journal_id, installed, value, cleanup_error: null };
      });
      return result;
    } catch (e) {
      if (!touched && this.deferredStart && e instanceof StreamVersionConflictError) return this.withdraw();
      if (!touched) {
        if (this.deferredStart) this.withdraw();
        throw e; // nothing installed: an infrastructure failure, answered as such
      }
      if (!committing && this.deferredStart) {
        // The transaction that would have recorded the journal rolled back: settle it as recovery does (the
        // file put back, the journal recorded with its rollback), or, the store failing still, from the disk alone.
        const state = (await this.settleUnrecordedNow()) ?? restoreUnrecorded(this.files, this.planned[0]);
        return { kind: 'io_error', journal_id, state, detail: String(e) };
      }
      if (!committing) {
        // Files were installed and the outcome transaction failed before its commit: settle the journal now,
        // under the lease still held, and answer what the disk holds (a write is rolled back, a save settled forward).
        const state = await recoverJournal(this.ctx, journal_id);
        if (state === 'rolled_back') return { kind: 'io_error', journal_id, state, detail: String(e) };
        if (state !== 'committed') return { kind: 'io_error', journal_id, state: 'pending_reconcile', detail: String(e) };
        installed = this.planned.map((f) => ({ target_id: f.target_id, path: f.path, disk_sha256: f.staged_sha256, bytes_written: f.bytes, durability: 'confirmed' }));
      }
      // Installed, and the commit failed or its answer was lost: the journal tells which once it is read again.
      return { kind: 'outcome_uncertain', journal_id, installed, detail: String(e) };
    }
  }
}

/** The staged bytes installed with no journal committed: the backup renamed back (pending_reconcile when that cannot be). */
function restoreUnrecorded(files: OpenedFiles, planned: PlannedFile): 'rolled_back' | 'pending_reconcile' {
  try {
    const now = readEntry(files.dests[0]);
    const disk = now.kind === 'file' ? now.sha256 : null;
    files.remove(0, planned.stage_name);
    if (disk === planned.staged_sha256) restoreBackup(files.dests[0], planned.backup_name!);
    else if (disk === planned.replaced_sha256) files.remove(0, planned.backup_name);
    else return 'pending_reconcile';
    files.syncDirectories();
    return 'rolled_back';
  } catch {
    return 'pending_reconcile'; // the backup stays: the next drift check or start settles it by its name
  }
}
