import type { SubmitProposal } from '@palimpsest/core/target/target.commands';
import { plainSubmission } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import { PROTOCOL, type ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import { readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext } from '../../app-context';
import type { FileToolRefusal } from './file-tool-refusal';
import { publishChange } from '../../shared/target-pipeline/publication-step';
import { acceptedChange, commitDecided, runTargetCommand, type AcceptedChange, type TargetCommandPlan } from '../../shared/target-pipeline/target-pipeline';
import { refusalAnswer, type Decided } from '../../shared/target-refusals';
import { enrichRejection } from '../../submit-proposal/rejection-enrichment';
import type { FileTarget } from './file-target';
import { publicationRefusal, type Written } from './write-answers';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { callerClientMetadata } from '../../shared/session-metadata';

/**
 * One guarded change of a bound file by a file tool: a tx/1 edit (edit_file) or a tx/3 whole replacement
 * (write_file), guarded by the version the tool just saw: a command of the target pipeline
 * (shared/target-pipeline). A rejection is recorded at once (ProposalRejected, attempt log) and handed to
 * the tool, which answers it (edit_file lean, its full diagnostics on request); nothing is published. An
 * accepted change records nothing yet: the pipeline's publication step publishes it through the journal
 * and commits it with PublicationCompleted, so a change that cannot reach the disk (drift, busy, crash)
 * leaves no accepted change behind. A writer that waited for the lease while others published the same
 * file decides its change again, under the lease, on the version they left (the publication's rebase):
 * the tool's guard is the text it matches, not a version the agent sent.
 */

export interface GuardedChange {
  tool: OP.edit_file | OP.write_file;
  protocol: ProtocolVersion;
  proposal: Record<string, unknown>;
  /** The client session's id, recorded in the events' metadata beside its command runs. */
  correlation_id?: string | null;
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

type Declined = Exclude<GuardedOutcome, { kind: 'written' }>;

/**
 * The change as a command of the target pipeline: decided first on the row the tool just read (an
 * acceptance goes straight to `effect`, which carries it out and commits it); a refusal or a rejection is
 * decided again under the row lock, and a rejection recorded there.
 */
export function guardedPlan<A>(ctx: AppContext, t: Bound, change: GuardedChange, effect: (accepted: AcceptedChange) => Promise<A>): TargetCommandPlan<A | Declined> {
  const targetId = t.row.target_id;
  const attemptId = ctx.ids.next();
  const now = ctx.clock.now();
  const command = () => guardedCommand(t.row, change, attemptId, now);
  return {
    targetId,
    optimistic: async () => {
      const accepted = acceptedChange(decide(command(), t.row), t.row, attemptId, now);
      return accepted ? { kind: 'effect', change: accepted } : 'declined';
    },
    locked: async (locked, unit) => {
      if (!locked) throw new Error(`file tools: the bound target ${targetId} is gone`);
      const d = decide(command(), locked);
      if (d.kind === 'refused') return { kind: 'answer', answer: { kind: 'answer', answer: refusalAnswer(d.refusal) } };
      const accepted = acceptedChange(d, locked, attemptId, now);
      if (accepted) return { kind: 'effect', change: accepted };
      await commitDecided(unit, locked, d, now, { command: 'SubmitProposal', tool: change.tool, correlation_id: change.correlation_id ?? null, ...callerClientMetadata() });
      return { kind: 'answer', answer: { kind: 'rejected', before: locked, rejection: recordedRejection(d, locked, change, now) } };
    },
    effect,
  };
}

/** The change decided (a rejection recorded), stopping short of its effect: an acceptance is handed back to be carried out. */
export function decideGuarded(ctx: AppContext, t: Bound, change: GuardedChange): Promise<{ kind: 'accepted'; change: AcceptedChange } | Declined> {
  return runTargetCommand(ctx, guardedPlan(ctx, t, change, async (accepted) => ({ kind: 'accepted' as const, change: accepted })));
}

export function guardedWrite(ctx: AppContext, t: Bound, change: GuardedChange): Promise<GuardedOutcome> {
  return runTargetCommand(ctx, guardedPlan(ctx, t, change, (accepted) => publishGuarded(ctx, t, change, accepted)));
}

/** The accepted change through the pipeline's publication step, answered as the tool's outcome. */
async function publishGuarded(ctx: AppContext, t: Bound, change: GuardedChange, accepted: AcceptedChange): Promise<GuardedOutcome> {
  const r = await publishChange<Declined>(ctx, {
    change: accepted,
    file: { path: t.path, baseline: t.baseline, style: t.bound_style },
    metadata: { command: 'SubmitProposal', tool: change.tool, correlation_id: change.correlation_id ?? null, ...callerClientMetadata() },
    decideAgain: async (_tx, locked, c) => {
      const at = ctx.clock.now();
      return { decision: decide(guardedCommand(c.on, change, c.attemptId, at), locked), decidedAt: at };
    },
    // Writers of one file take turns: the change is made on the text the previous writer left, as the tool
    // would have made it had it come later (edit_file's oldString must still match once; write_file replaces).
    rebase: async (c) => {
      const now = await readTargetRow(ctx.db, t.row.target_id, ctx.contents);
      if (!now) throw new Error(`file tools: the bound target ${t.row.target_id} is gone`);
      if (now.version === c.on.version) return c;
      const again = await decideGuarded(ctx, { ...t, row: now }, change);
      return again.kind === 'accepted' ? again.change : { stop: again };
    },
  });
  switch (r.kind) {
    case 'stopped':
      return r.stop;
    case 'moved':
      return { kind: 'answer', answer: movedAnswer(t, r.version ?? r.change.on.version) };
    case 'unpublished':
      return { kind: 'answer', answer: publicationRefusal(r.result, t.path, t.row.target_id) };
    case 'published': {
      const { change: done, installed } = r;
      return {
        kind: 'written',
        before: done.on,
        after: { version: done.after.version, current_hash: done.after.current_hash, content: done.after.content },
        written: { attempt_id: done.attemptId, journal_id: r.journal_id, bytes_written: installed.bytes_written, disk_sha256: installed.disk_sha256, content_eol: r.content_eol, cleanup_error: r.cleanup_error },
      };
    }
  }
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
