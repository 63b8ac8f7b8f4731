import type { AppliedTarget, CandidateAppliedData } from '@palimpsest/core/candidate/candidate.events';
import type { ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import { defaultIntent, targetProposal } from '@palimpsest/core/candidate/target-record';
import type { DiskChange, MovedBy, TargetNow } from '@palimpsest/core/candidate/candidate.commands';
import { workspaceFileOf } from '@palimpsest/projections/workspace-files.queries';
import { hashWorkspaceFile } from '@palimpsest/workspace/workspace-file-reader';
import type { SubmitProposal } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import type { TargetEvent } from '@palimpsest/core/target/target.events';
import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../../app-context';
import type { CommitTargetEvents } from '../../shared/commit-events';
import { commitDecided } from '../../shared/target-pipeline/target-pipeline';
import { sessionMetadata } from '../../shared/session-metadata';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { plainSubmission } from '@palimpsest/core/target/target.commands';
import type { Decided } from '../../shared/target-refusals';
import { candidateThatWrote } from '@palimpsest/projections/candidates/candidate-targets.queries';
import { lockTargetRow, targetHeads, type TargetRow } from '@palimpsest/projections/content/target-row.queries';

/**
 * The targets side of an apply. Written targets are locked in ascending id order — every apply
 * takes its locks in that one order, so two candidates sharing targets cannot deadlock — and each is
 * then written through the target aggregate as a tx/2 record of the candidate's span operations.
 */

export class ApplyDiverged extends Error {
  constructor(readonly targetId: string, detail: string) {
    super(`apply: target ${targetId} did not accept the candidate as recorded (${detail}); nothing was written`);
  }
}

export const sortedIds = (ids: string[]) => [...ids].sort();

export async function lockWrittenTargets(tx: Sql, ids: string[], ctx: AppContext): Promise<Map<string, TargetRow>> {
  const rows = new Map<string, TargetRow>();
  for (const id of sortedIds(ids)) {
    const row = await lockTargetRow(tx, id, ctx.contents);
    if (!row) throw new ApplyDiverged(id, 'the target row is missing');
    rows.set(id, row);
  }
  return rows;
}

/** Who wrote the first version after `base`: a candidate's apply (recorded in candidate_targets) or a direct submission. */
async function movedBy(tx: Sql, targetId: string, base: number): Promise<MovedBy> {
  const candidate = await candidateThatWrote(tx, targetId, base + 1);
  return candidate ? { kind: 'candidate', candidate_id: candidate } : { kind: 'direct' };
}

/**
 * Every target of the candidate as it is now: written ones from their locked rows, read ones by a plain
 * read, and a read one bound to a file of this workspace with its file's bytes against its baseline
 * (seed 000: an input the candidate does not write is checked on disk too).
 */
export async function observeForApply(ctx: AppContext, tx: Sql, c: ExistingCandidate, locked: Map<string, TargetRow>): Promise<Record<string, TargetNow>> {
  const others = c.targets.filter((t) => !locked.has(t.target_id)).map((t) => t.target_id);
  const rows = await targetHeads(tx, others);
  const seen = new Map<string, { version: number; hash: string }>();
  for (const [id, row] of locked) seen.set(id, { version: row.version, hash: row.current_hash });
  for (const r of rows) seen.set(r.target_id, { version: r.version, hash: r.current_hash });
  const out: Record<string, TargetNow> = {};
  for (const t of c.targets) {
    const now = seen.get(t.target_id);
    if (!now) throw new ApplyDiverged(t.target_id, 'the target row is missing');
    const moved = now.version !== t.version && locked.has(t.target_id) ? await movedBy(tx, t.target_id, t.version) : null;
    const disk = locked.has(t.target_id) ? null : await diskChangeOf(ctx, tx, t.target_id);
    out[t.target_id] = { version: now.version, hash: now.hash, moved_by: moved, ...(disk ? { disk } : {}) };
  }
  return out;
}

/** The bound file of a read input, when its bytes are not its baseline (null: unbound, under another root, or unchanged). */
async function diskChangeOf(ctx: AppContext, tx: Sql, targetId: string): Promise<DiskChange | null> {
  const root = ctx.workspace;
  const binding = root ? await workspaceFileOf(tx, targetId) : null;
  if (!root || !binding || binding.root_dev !== root.dev || binding.root_ino !== root.ino) return null;
  const read = hashWorkspaceFile(root, binding.path);
  const observed = read.kind === 'refused' ? null : read.sha256;
  // A file that cannot be read as a plain file (a link now, a directory) is no longer the input either.
  if (observed === binding.disk_sha256) return null;
  return { path: binding.path, expected_sha256: binding.disk_sha256, observed_sha256: observed };
}

/** One written target's record decided on its locked row: the accepted proposal, its result hash checked against the candidate. */
export function decideTargetWrite(c: ExistingCandidate, applied: CandidateAppliedData, t: AppliedTarget, row: TargetRow): Decided {
  const member = c.targets.find((m) => m.target_id === t.target_id);
  if (!member) throw new ApplyDiverged(t.target_id, 'not a target of the candidate');
  const command: SubmitProposal = plainSubmission({
    now: applied.applied_at,
    attempt_id: t.attempt_id,
    target_id: t.target_id,
    protocol_version: PROTOCOL.tx2,
    proposal: targetProposal(c.intent ?? defaultIntent(c.candidate_id, c.version), member.operations),
    expected_target_version: t.base_version,
    source: `candidate:${c.candidate_id}`,
    lookups: { keyed: null, parent: null },
  });
  const outcome = decide(command, row);
  if (outcome.kind === 'refused') throw new ApplyDiverged(t.target_id, `refused: ${outcome.refusal.kind}`);
  const event = outcome.events[0];
  if (event?.type !== 'ProposalAccepted') throw new ApplyDiverged(t.target_id, event ? `${event.type}: ${(event.data as { failure_detail?: string }).failure_detail}` : 'no event');
  if (event.data.after_hash !== t.result_hash) throw new ApplyDiverged(t.target_id, 'the result hash differs from the candidate');
  return outcome;
}

/** The text a written target holds once the candidate is applied (what its workspace file is published with). */
export function resultText(c: ExistingCandidate, applied: CandidateAppliedData, t: AppliedTarget, row: TargetRow): string {
  const state = decideTargetWrite(c, applied, t, row).state;
  if (!state.exists) throw new ApplyDiverged(t.target_id, 'the accepted proposal left no target');
  return state.content;
}

/** Submit each written target's record through the target decider and commit it with the target's projections (and any events recorded with it: a created file's binding). */
export async function writeTargets(
  commit: CommitTargetEvents,
  c: ExistingCandidate,
  applied: CandidateAppliedData,
  locked: Map<string, TargetRow>,
  withRecord: ReadonlyMap<string, TargetEvent[]> = new Map(),
  sessionId: string | null = null,
): Promise<void> {
  for (const t of applied.targets) {
    const row = locked.get(t.target_id) as TargetRow;
    const decided = decideTargetWrite(c, applied, t, row);
    const outcome = { ...decided, events: [...decided.events, ...(withRecord.get(t.target_id) ?? [])] };
    const metadata = sessionMetadata({ command: 'ApplyCandidate', candidate_id: c.candidate_id, receipt_id: applied.receipt_id }, OP.palimpsest_change_apply, sessionId);
    await commitDecided({ commit }, row, outcome, applied.applied_at, metadata);
  }
}
