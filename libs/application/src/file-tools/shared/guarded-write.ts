import type { SubmitProposal } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import { PROTOCOL, type ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import { lockTargetRow, readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext } from '../../app-context';
import type { FileToolRefusal } from './file-tool-refusal';
import { commitOf } from '../../shared/commit-events';
import { plainSubmission } from '@palimpsest/core/target/target.commands';
import { targetUnitOfWork } from '../../shared/handle-command';
import { refusalAnswer, type Decided } from '../../shared/target-refusals';
import { enrichRejection } from '../../submit-proposal/rejection-enrichment';
import { publishFiles } from '../../workspace-publication/publish-files';
import { fileBytesOf } from '../../workspace-publication/file-bytes';
import type { FileTarget } from './file-target';
import { publicationRefusal, type Written } from './write-answers';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/**
 * One guarded change of a bound file by a file tool: a tx/1 edit (edit_file) or a tx/3 whole replacement
 * (write_file), guarded by the version the tool just saw, decided under the target's row lock. A
 * rejection is recorded at once (ProposalRejected, attempt log) and handed to the tool, which answers it
 * (edit_file lean, its full diagnostics on request); nothing is published. An accepted change records nothing yet: it is published through the journal
 * (kind 'write', the replaced file backed up) and decided again under the lock in the outcome
 * transaction, where the ProposalAccepted commits with PublicationCompleted. So a change that cannot
 * reach the disk (drift, busy, crash) leaves no accepted change behind. A writer that waited for the
 * lease while others published the same file decides its change again, under the lease, on the version
 * they left (the publication's rebase): the tool's guard is the text it matches, not a version the agent sent.
 */

export interface GuardedChange {
  tool: OP.edit_file | OP.write_file;
  protocol: ProtocolVersion;
  proposal: Record<string, unknown>;
}

type Bound = Extract<FileTarget, { kind: 'bound' }>;

/** The target once the change committed. */
export interface WrittenText {
  version: number;
  current_hash: string;
  content: string;
}

/** A rejection the guarded write recorded: its fields, and the full answer the submission tools give, built on request. */
export interface RecordedRejection {
  target_file_id: string;
  failure_reason: string;
  failure_detail: string;
  attempt_id: string;
  /** The full answer: the recorded diagnostic with exact candidates, near misses, contexts and tx/1 next actions. */
  detailed(): FileToolRefusal;
}

export type GuardedOutcome =
  | { kind: 'written'; written: Written; before: TargetRow; after: WrittenText }
  | { kind: 'rejected'; rejection: RecordedRejection; before: TargetRow }
  | { kind: 'answer'; answer: FileToolRefusal };

/** The command a file-tool change is decided as, guarded by the version and hash of the target it read. */
export function guardedCommand(read: { target_id: string; version: number; current_hash: string }, change: GuardedChange, attemptId: string, now: string): SubmitProposal {
  return plainSubmission({
    now,
    attempt_id: attemptId,
    target_id: read.target_id,
    protocol_version: change.protocol,
    proposal: change.proposal,
    expected_target_version: read.version,
    expected_current_hash: read.current_hash,
    source: change.tool,
    lookups: { keyed: null, parent: null },
  });
}

const acceptedHash = (d: Decided): string | null => {
  const e = d.events[0];
  return e?.type === 'ProposalAccepted' ? e.data.after_hash : null;
};

/** A change decided and found acceptable, nothing of it recorded yet. */
export interface AcceptedChange {
  kind: 'accepted';
  attemptId: string;
  /** The `now` the change was decided with. */
  decidedAt: string;
  planned: Decided;
  locked: TargetRow;
  after: Extract<Decided['state'], { exists: true }>;
}

/**
 * The change decided first on the row the tool just read: an accepted change needs no transaction of its
 * own (whoever carries it out decides it again under the lock); a refusal or rejection is decided again
 * under the lock here, and a rejection recorded.
 */
export async function decideGuarded(ctx: AppContext, t: Bound, change: GuardedChange): Promise<AcceptedChange | Exclude<GuardedOutcome, { kind: 'written' }>> {
  const attemptId = ctx.ids.next();
  const now = ctx.clock.now();
  const optimistic = decide(guardedCommand(t.row, change, attemptId, now), t.row);
  const first = optimistic.kind === 'decided' && acceptedHash(optimistic) !== null
    ? { kind: 'accepted' as const, d: optimistic, locked: t.row }
    : await lockedDecision(ctx, t, change, attemptId, now);
  if (first.kind === 'answer') return first;
  if (first.kind === 'rejected') return { kind: 'rejected', before: first.locked, rejection: recordedRejection(first.d, first.locked, change, now) };
  const after = first.d.state.exists ? first.d.state : null;
  if (!after) throw new Error('file tools: an accepted change left no target');
  return { kind: 'accepted', attemptId, decidedAt: now, planned: first.d, locked: first.locked, after };
}

export async function guardedWrite(ctx: AppContext, t: Bound, change: GuardedChange): Promise<GuardedOutcome> {
  const targetId = t.row.target_id;
  const first = await decideGuarded(ctx, t, change);
  if (first.kind !== 'accepted') return first;
  // What the publication carries out: the first decision, or the one made again under the lease.
  let base = { t, decided: first };
  const fileOf = (d: AcceptedChange) => {
    const bytes = fileBytesOf(d.after.content, d.locked.source_line_endings, t.bound_style);
    return { file: bytes, publish: { target_id: targetId, path: t.path, target_version: d.after.version, bytes: bytes.bytes, content_eol: bytes.content_eol, replaced_sha256: t.baseline, backup: true } };
  };
  let planned = fileOf(first);
  type Value = { kind: 'moved'; answer: FileToolRefusal } | { kind: 'declined'; outcome: Exclude<GuardedOutcome, { kind: 'written' }> } | { kind: 'accepted'; after: WrittenText };
  const result = await publishFiles<Value>(ctx, {
    kind: 'write',
    request_id: null,
    candidate_id: null,
    files: [planned.publish],
    plannedOn: [{ target_id: targetId, version: first.locked.version }],
    // Writers of one file take turns: the change is made on the text the previous writer left, as the tool
    // would have made it had it come later (edit_file's oldString must still match once; write_file replaces).
    rebase: async () => {
      const now = await readTargetRow(ctx.db, targetId, ctx.contents);
      if (!now) throw new Error(`file tools: the bound target ${targetId} is gone`);
      if (now.version === base.decided.locked.version) return { go: true, files: [planned.publish] };
      const moved = { ...t, row: now };
      const again = await decideGuarded(ctx, moved, change);
      if (again.kind !== 'accepted') return { go: false, answer: { kind: 'declined' as const, outcome: again } };
      base = { t: moved, decided: again };
      planned = fileOf(again);
      return { go: true, files: [planned.publish] };
    },
    outcome: async (tx, commit) => {
      const { t: on, decided } = base;
      const locked = await lockTargetRow(tx, targetId, ctx.contents);
      if (!locked) throw new Error(`file tools: the bound target ${targetId} is gone`);
      // Decided once: the lock shows the very row the change was decided on. Only a row that moved meanwhile is decided again.
      const unmoved = locked.stream_version === decided.locked.stream_version;
      const decidedAt = unmoved ? decided.decidedAt : ctx.clock.now();
      const again = unmoved ? decided.planned : decide(guardedCommand(on.row, change, decided.attemptId, decidedAt), locked);
      if (again.kind === 'refused' || acceptedHash(again) !== acceptedHash(decided.planned) || locked.version !== decided.locked.version) {
        const detail = `target ${targetId} moved from version ${decided.locked.version} to ${locked.version} before ${t.path} was installed`;
        return { go: false, detail, answer: { kind: 'moved' as const, answer: movedAnswer(t, locked.version) } };
      }
      return {
        go: true,
        finish: async () => {
          await commit(commitOf(locked, again, decidedAt, { command: 'SubmitProposal', tool: change.tool }));
          const state = again.state.exists ? again.state : locked;
          return { kind: 'accepted' as const, after: { version: state.version, current_hash: state.current_hash, content: state.content } };
        },
      };
    },
  });
  if (result.kind === 'stopped') {
    const v = result.answer;
    return v.kind === 'declined' ? v.outcome : { kind: 'answer', answer: v.kind === 'moved' ? v.answer : movedAnswer(t, base.decided.locked.version) };
  }
  if (result.kind !== 'published') return { kind: 'answer', answer: publicationRefusal(result, t.path, targetId) };
  const value = result.value;
  if (value.kind !== 'accepted') return { kind: 'answer', answer: value.kind === 'moved' ? value.answer : movedAnswer(t, base.decided.locked.version) };
  const installed = result.installed[0];
  return {
    kind: 'written',
    before: base.decided.locked,
    after: value.after,
    written: { attempt_id: base.decided.attemptId, journal_id: result.journal_id, bytes_written: installed.bytes_written, disk_sha256: installed.disk_sha256, content_eol: planned.file.content_eol, cleanup_error: result.cleanup_error },
  };
}

/** The change decided under the target's row lock; a rejection is recorded (ProposalRejected) in that transaction. */
function lockedDecision(ctx: AppContext, t: Bound, change: GuardedChange, attemptId: string, now: string) {
  const targetId = t.row.target_id;
  return targetUnitOfWork(ctx)(async ({ tx, commit }) => {
    const locked = await lockTargetRow(tx, targetId, ctx.contents);
    if (!locked) throw new Error(`file tools: the bound target ${targetId} is gone`);
    const d = decide(guardedCommand(t.row, change, attemptId, now), locked);
    if (d.kind === 'refused') return { kind: 'answer' as const, answer: refusalAnswer(d.refusal), locked };
    if (acceptedHash(d) === null) {
      await commit(commitOf(locked, d, now, { command: 'SubmitProposal', tool: change.tool }));
      return { kind: 'rejected' as const, d, locked };
    }
    return { kind: 'accepted' as const, d, locked };
  });
}

function movedAnswer(t: Bound, version: number): FileToolRefusal {
  return {
    status: 'rejected',
    target_file_id: t.row.target_id,
    failure_reason: 'target_version_mismatch',
    failure_detail: `${t.path} was changed through Palimpsest (now version ${version}) while this write was prepared. Nothing was written: read the file again, then send the change again.`,
    retryable: 'after_refresh',
    next_actions: [{ operation: OP.read_file, reason: 'Read the file as it is now, then send the change again', params: { path: t.path } }],
  };
}

function recordedRejection(d: Decided, locked: TargetRow, change: GuardedChange, now: string): RecordedRejection {
  const e = d.events[0];
  if (e?.type !== 'ProposalRejected') throw new Error(`file tools: decided ${e?.type ?? 'nothing'}`);
  const r = e.data;
  return {
    target_file_id: locked.target_id,
    failure_reason: r.failure_reason,
    failure_detail: r.failure_detail,
    attempt_id: r.attempt_id,
    detailed: () => rejectionAnswer(d, locked, change, now),
  };
}

/** The recorded rejection with the usual diagnostics (exact candidates, near misses, contexts), and the submission tool's next actions. */
function rejectionAnswer(d: Decided, locked: TargetRow, change: GuardedChange, now: string): FileToolRefusal {
  const r = (d.events[0] as Extract<Decided['events'][number], { type: 'ProposalRejected' }>).data;
  const base: FileToolRefusal = {
    status: 'rejected',
    target_file_id: locked.target_id,
    failure_reason: r.failure_reason,
    failure_detail: r.failure_detail,
    attempt_id: r.attempt_id,
    current_version: locked.version,
    current_hash: locked.current_hash,
    diagnostic: r.diagnostic,
  };
  const operation = change.protocol === PROTOCOL.tx1 ? OP.palimpsest_submit_edits : OP.palimpsest_submit_replacement;
  const request = { operation, args: { target_file_id: locked.target_id, expected_target_version: locked.version, ...change.proposal } } as const;
  return enrichRejection(base, { request, current: locked, nearMissSource: d.hints.nearMissSource, recorded: true, now });
}
