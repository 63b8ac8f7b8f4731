import { commandApprovalRow, commandApprovalRows, type CommandApprovalRow, type CommandApprovalStatus } from '@palimpsest/projections/command-runs/command-approvals.queries';
import { loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import type { Sql } from '@palimpsest/store/db';
import type { AppContext } from '../../app-context';
import { RunRecord } from '../../commands/shared/run-record';

/**
 * The approvals a command run asks for (run_command / start_command under `approve`), decided on the
 * same surface as the candidates' (`palimpsest approvals`): the decision is an event on the run's
 * stream, and the waiting call is woken by its NOTIFY.
 */

export type { CommandApprovalRow, CommandApprovalStatus };

export function listCommandApprovals(sql: Sql, opts: { status?: CommandApprovalStatus | 'all'; limit?: number } = {}): Promise<CommandApprovalRow[]> {
  return commandApprovalRows(sql, { status: opts.status ?? 'pending', limit: Math.min(Math.max(opts.limit ?? 50, 1), 500) });
}

/** A person's decision (the same input the candidates' approvals take). */
export interface CommandApprovalDecision {
  approval_id: string;
  decision: 'grant' | 'decline';
  decided_by: string;
  note?: string | null;
}

export type CommandApprovalDecided = { kind: 'decided'; approval: CommandApprovalRow } | { kind: 'not_pending'; approval: CommandApprovalRow } | { kind: 'unknown' };

/** Records a person's grant or decline on the run's stream; a decision that is no longer pending changes nothing. */
export async function decideCommandApproval(ctx: AppContext, input: CommandApprovalDecision): Promise<CommandApprovalDecided> {
  const found = await commandApprovalRow(ctx.db, input.approval_id);
  if (!found) return { kind: 'unknown' };
  if (found.status !== 'pending') return { kind: 'not_pending', approval: found };
  const record = new RunRecord(ctx, found.run_id, { command: 'DecideApproval', decided_by: input.decided_by }, await loadCommandRun(ctx.db, found.run_id));
  try {
    await record.record({ type: 'DecideApproval', approval_id: found.approval_id, decision: input.decision, decided_by: input.decided_by, note: input.note ?? null });
  } catch (error) {
    const now = await commandApprovalRow(ctx.db, input.approval_id);
    if (now && now.status !== 'pending') return { kind: 'not_pending', approval: now }; // the waiting call timed out first
    throw error;
  }
  const decided = await commandApprovalRow(ctx.db, input.approval_id);
  if (!decided) throw new Error(`command approval ${input.approval_id} vanished after its decision`);
  return { kind: 'decided', approval: decided };
}
