import type { TargetNow } from '@palimpsest/core/candidate/candidate.commands';
import type { BaseChange, CandidateAppliedData, CandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import type { ExistingJournal, JournalState } from '@palimpsest/core/publication/publication.state';
import { loadJournal } from '@palimpsest/projections/publications/publication-append';
import { journalsOfRequest } from '@palimpsest/projections/publications/publication.queries';
import type { Sql } from '@palimpsest/store/db';
import type { ApplyAnswer } from '../shared/envelope';

/**
 * The apply receipt (seed 000), built from what is recorded — the CandidateApplied event and the journal
 * its request_id committed — so a fresh and a replayed answer are the same. A candidate that writes no
 * bound file has no journal: `journal: null` and `files: []`.
 */

export interface ReceiptFile {
  path: string;
  target_file_id: string;
  before_sha256: string | null;
  after_sha256: string;
  change: 'modified' | 'created';
}

export function receiptFiles(j: ExistingJournal): ReceiptFile[] {
  return j.files.map((f) => ({
    path: f.path,
    target_file_id: f.target_id,
    before_sha256: f.replaced_sha256,
    after_sha256: f.staged_sha256,
    change: f.replaced_sha256 === null ? 'created' : 'modified',
  }));
}

/** A receipt names the committed journal of its apply (committedJournalOf): one in another state is a defect. */
function settled(state: JournalState): Exclude<JournalState, 'started' | 'resolved'> {
  if (state === 'started' || state === 'resolved') throw new Error(`apply: the receipt names a journal that is ${state}`);
  return state;
}

export function receiptOf(d: CandidateAppliedData, journal: ExistingJournal | null): Extract<ApplyAnswer, { status: 'ok' }>['receipt'] {
  return {
    receipt_id: d.receipt_id,
    request_id: d.request_id,
    input_fingerprint: d.input_fingerprint,
    outcome: 'applied',
    candidate: d.candidate_id,
    candidate_version: d.candidate_version,
    targets: d.targets.map((t) => ({
      target_file_id: t.target_id,
      attempt_id: t.attempt_id,
      base_version: t.base_version,
      result_version: t.result_version,
      before_sha256: t.base_hash,
      after_sha256: t.result_hash,
    })),
    files: journal ? receiptFiles(journal) : [],
    journal: journal ? { id: journal.journal_id, state: settled(journal.state) } : null,
    approval_id: d.approval_id,
    recorded_at: d.applied_at,
  };
}

/** The journal an applied request committed (a request can have rolled-back attempts before it), or null. */
export async function committedJournalOf(sql: Sql, requestId: string): Promise<ExistingJournal | null> {
  const row = (await journalsOfRequest(sql, requestId)).find((j) => j.kind === 'apply' && j.state === 'committed');
  if (!row) return null;
  const loaded = await loadJournal(sql, row.journal_id);
  return loaded.state.exists ? loaded.state : null;
}

/** A read input that changed since the base: its target moved, or (disk) its file was edited outside Palimpsest. */
const baseChangeView = (b: BaseChange, observed: Record<string, TargetNow>) => {
  const disk = observed[b.target_id]?.disk;
  return {
    target_file_id: b.target_id,
    base_version: b.base_version,
    current_version: b.current_version,
    base_sha256: b.base_hash,
    current_sha256: b.current_hash,
    ...(disk ? { disk: { path: disk.path, expected_sha256: disk.expected_sha256, observed_sha256: disk.observed_sha256 } } : {}),
  };
};

/** An apply on the record (this attempt's, or an earlier attempt's of the same request): its CandidateApplied and the journal it committed. */
export interface AppliedRecord {
  applied: CandidateAppliedData;
  /** The committed journal of the apply's files; null when it wrote no workspace file. */
  journal: ExistingJournal | null;
  replayed: boolean;
  /** Every target as the decision saw it (a read input's file change is answered in base_changes). */
  observed: Record<string, TargetNow>;
}

/** The recorded apply of a CandidateApplied event, with the journal its request committed. */
export async function appliedRecord(sql: Sql, event: CandidateEvent | null, replayed: boolean, observed: Record<string, TargetNow> = {}): Promise<AppliedRecord> {
  if (!event || event.type !== 'CandidateApplied') throw new Error('apply: the recorded request names no CandidateApplied event');
  return { applied: event.data, journal: await committedJournalOf(sql, event.data.request_id), replayed, observed };
}

export function appliedAnswer({ applied, journal, replayed, observed }: AppliedRecord): ApplyAnswer {
  const answer: Extract<ApplyAnswer, { status: 'ok' }> = { status: 'ok', replayed, receipt: receiptOf(applied, journal) };
  if (!replayed && applied.base_changes.length) answer.base_changes = applied.base_changes.map((b) => baseChangeView(b, observed));
  return answer;
}
