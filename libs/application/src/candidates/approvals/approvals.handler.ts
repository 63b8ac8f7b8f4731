import { decide } from '@palimpsest/core/candidate/candidate.decider';
import { refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { approvalRow, approvalRows, type ApprovalRow, type ApprovalStatusFilter } from '@palimpsest/projections/candidates/approvals.queries';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../../app-context';
import { candidateUnitOfWork, handleCommand } from '../../shared/handle-command';
import { toIso } from '../../shared/sql-values';
import { lockAndLoad } from '../shared/candidate-store';
import { commitCandidateEvents } from '../shared/candidate-store';
import { errorResult, type CandidateAnswer } from '../shared/envelope';
import { decideCommandApproval, type CommandApprovalRow } from './command-approvals';

/**
 * Operator side of approvals (CLI `palimpsest approvals`, and the gateway's operator routes):
 * list what waits for a decision, and grant or decline it. A decision is an event on the
 * candidate's stream; the waiting apply is woken by its NOTIFY.
 */

export type { ApprovalStatusFilter };

/** An approval as operators see it: the row, its times as ISO strings. */
export type ApprovalView = Omit<ApprovalRow, 'requested_at' | 'decided_at'> & { requested_at: string | null; decided_at: string | null };

function view(r: ApprovalRow): ApprovalView {
  return { ...r, requested_at: toIso(r.requested_at), decided_at: toIso(r.decided_at) };
}

/** Pending approvals are those of open, unexpired candidates at the version asked about; oldest first. */
export async function listApprovals(sql: Sql, opts: { status?: ApprovalStatusFilter; limit?: number; now?: string } = {}): Promise<ApprovalView[]> {
  const status = opts.status ?? 'pending';
  const limit = Math.min(Math.max(opts.limit ?? 50, 1), 500);
  return (await approvalRows(sql, { status, limit, now: opts.now ?? new Date().toISOString() })).map(view);
}

export async function getApproval(sql: Sql, approvalId: string, now = new Date().toISOString()): Promise<ApprovalView | null> {
  const row = await approvalRow(sql, approvalId, now);
  return row ? view(row) : null;
}

export interface ApprovalDecisionInput {
  approval_id: string;
  decision: 'grant' | 'decline';
  decided_by: string;
  note?: string | null;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** An operator's decision, answered with the approval as it now stands (a command run's, when it was one). */
export type ApprovalDecided = { status: 'ok'; approval: ApprovalView | null; command_approval?: CommandApprovalRow; error?: undefined };

export async function decideApproval(ctx: AppContext, input: ApprovalDecisionInput): Promise<CandidateAnswer<ApprovalDecided>> {
  const approvalId = input.approval_id.toLowerCase();
  const unknown = errorResult(refusal('not_found', 'approval_unknown', `No approval with id ${input.approval_id}.`, { target: { approval: input.approval_id } }));
  if (!UUID.test(approvalId)) return unknown;
  const found = await getApproval(ctx.db, approvalId, ctx.clock.now());
  if (!found) return decideForCommand(ctx, { ...input, approval_id: approvalId }, unknown);
  const now = ctx.clock.now();
  const answer = await handleCommand({
    unitOfWork: candidateUnitOfWork(ctx),
    load: (tx) => lockAndLoad(tx, found.candidate),
    decide: (loaded) =>
      decide(
        { type: 'DecideApproval', now, candidate_id: found.candidate, approval_id: approvalId, decision: input.decision, decided_by: input.decided_by, note: input.note ?? null },
        loaded.state,
      ),
    commit: async (loaded, d, tx): Promise<{ refused: CandidateAnswer<ApprovalDecided> | null }> => {
      if (d.kind === 'replayed' || d.kind === 'awaiting_approval') throw new Error(`approval decided ${d.kind}`);
      await commitCandidateEvents(tx, found.candidate, loaded, d.events, now, { command: 'DecideApproval' });
      return { refused: d.kind === 'refused' ? errorResult(d.refusal) : null };
    },
  });
  if (answer.refused) return answer.refused;
  return { status: 'ok', approval: await getApproval(ctx.db, approvalId, now) };
}

/** Not a candidate's approval: a command run's, decided on its stream, or none at all. */
async function decideForCommand(ctx: AppContext, input: ApprovalDecisionInput, unknown: CandidateAnswer<ApprovalDecided>): Promise<CandidateAnswer<ApprovalDecided>> {
  const decided = await decideCommandApproval(ctx, input);
  if (decided.kind === 'unknown') return unknown;
  if (decided.kind === 'decided') return { status: 'ok', approval: null, command_approval: decided.approval };
  const { status } = decided.approval;
  return errorResult(refusal('precondition_failed', 'approval_decided', `Approval ${input.approval_id} was already ${status}.`, { retryable: 'none', target: { approval: input.approval_id }, details: { status } }));
}
