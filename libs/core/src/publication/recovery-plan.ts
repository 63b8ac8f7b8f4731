import type { CompletePublication, FailPublication } from './publication.commands';
import type { FailedFile, InstalledFile, PlannedFile } from './publication.events';
import type { ExistingJournal } from './publication.state';

/**
 * How a started journal with no outcome is settled (at start-up, or before the next publication of one
 * of its files), from what is on disk now. Pure: the caller reads the evidence under the lease, carries
 * out the actions in order, then records the command.
 *
 * The database outcome of a publication commits in the same transaction as its PublicationCompleted, so a
 * journal still 'started' is one whose outcome never committed:
 * - a save changed no target text (the text was already recorded), so it is settled forward: a file that
 *   holds the staged bytes is completed (its durability confirmed again), one that holds the replaced
 *   bytes was not applied;
 * - a candidate apply's target writes never committed, so its files are rolled back: a file holding the
 *   staged bytes gets its backup back (a created file is removed), one holding the replaced bytes is left.
 * A file holding anything else is left exactly as it is and the journal is pending_reconcile.
 */

export interface FileEvidence {
  /** SHA-256 of the file's bytes now; null when it is absent. */
  disk_sha256: string | null;
  stage_present: boolean;
  backup_present: boolean;
}

export type RecoveryAction =
  | { kind: 'remove_stage'; file: number }
  | { kind: 'restore_backup'; file: number }
  | { kind: 'remove_created'; file: number }
  | { kind: 'remove_backup'; file: number }
  | { kind: 'confirm_durability'; file: number };

export interface RecoveryPlan {
  actions: RecoveryAction[];
  /** The outcome to record once the actions are done; `now` is the caller's. */
  outcome: Omit<CompletePublication, 'now'> | Omit<FailPublication, 'now'>;
}

type Verdict = 'staged' | 'replaced' | 'other';

function verdict(f: PlannedFile, disk: string | null): Verdict {
  if (disk === f.replaced_sha256) return 'replaced'; // also when the staged bytes equal the replaced ones: nothing changed
  if (disk !== null && disk === f.staged_sha256) return 'staged';
  return 'other';
}

export function planRecovery(journal: ExistingJournal, evidence: readonly FileEvidence[]): RecoveryPlan {
  if (evidence.length !== journal.files.length) throw new Error('planRecovery: one evidence entry per planned file');
  const actions: RecoveryAction[] = [];
  evidence.forEach((e, file) => e.stage_present && actions.push({ kind: 'remove_stage', file }));
  return journal.kind === 'save' ? settleForward(journal, evidence, actions) : rollBack(journal, evidence, actions);
}

function settleForward(journal: ExistingJournal, evidence: readonly FileEvidence[], actions: RecoveryAction[]): RecoveryPlan {
  const verdicts = journal.files.map((f, i) => verdict(f, evidence[i].disk_sha256));
  if (verdicts.every((v) => v === 'staged')) {
    journal.files.forEach((_f, file) => actions.push({ kind: 'confirm_durability', file }));
    evidence.forEach((e, file) => e.backup_present && actions.push({ kind: 'remove_backup', file }));
    const files: InstalledFile[] = journal.files.map((f) => ({
      target_id: f.target_id,
      path: f.path,
      disk_sha256: f.staged_sha256,
      bytes_written: f.bytes,
      durability: 'confirmed',
    }));
    return { actions, outcome: { type: 'CompletePublication', files, reconciled: true } };
  }
  const files = failedFiles(journal.files, evidence, verdicts.map((v) => (v === 'replaced' ? 'not_applied' : 'unknown')));
  return failure(journal, evidence, actions, files);
}

function rollBack(journal: ExistingJournal, evidence: readonly FileEvidence[], actions: RecoveryAction[]): RecoveryPlan {
  const outcomes = journal.files.map((f, file): FailedFile['outcome'] => {
    const v = verdict(f, evidence[file].disk_sha256);
    if (v === 'replaced') return 'not_applied';
    if (v === 'other') return 'unknown';
    if (f.replaced_sha256 === null) {
      actions.push({ kind: 'remove_created', file });
      return 'restored';
    }
    if (!evidence[file].backup_present) return 'unknown'; // the staged bytes are there and the original is gone: a person decides
    actions.push({ kind: 'restore_backup', file });
    return 'restored';
  });
  return failure(journal, evidence, actions, failedFiles(journal.files, evidence, outcomes));
}

function failedFiles(planned: readonly PlannedFile[], evidence: readonly FileEvidence[], outcomes: FailedFile['outcome'][]): FailedFile[] {
  return planned.map((f, i) => ({ target_id: f.target_id, path: f.path, disk_sha256: outcomes[i] === 'restored' ? f.replaced_sha256 : evidence[i].disk_sha256, outcome: outcomes[i] }));
}

function failure(journal: ExistingJournal, evidence: readonly FileEvidence[], actions: RecoveryAction[], files: FailedFile[]): RecoveryPlan {
  const pending = files.filter((f) => f.outcome === 'unknown');
  // A backup is evidence while a file is unknown; a restore consumed its own.
  if (pending.length === 0) {
    evidence.forEach((e, file) => e.backup_present && files[file].outcome !== 'restored' && actions.push({ kind: 'remove_backup', file }));
  }
  if (pending.length > 0) {
    const detail = `interrupted publication ${journal.journal_id}: ${pending.map((f) => f.path).join(', ')} hold${pending.length === 1 ? 's' : ''} bytes that are neither the staged nor the replaced version; left as found`;
    return { actions, outcome: { type: 'FailPublication', state: 'pending_reconcile', reason: 'recovery_required', detail, files, reconciled: true } };
  }
  const detail = `interrupted publication ${journal.journal_id} ${journal.kind === 'save' ? 'had not installed its file' : 'was rolled back: its outcome never committed'}`;
  return { actions, outcome: { type: 'FailPublication', state: 'rolled_back', reason: 'interrupted', detail, files, reconciled: true } };
}
