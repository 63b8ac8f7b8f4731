import { userInfo } from 'node:os';
import type { Command } from 'commander';
import {
  decideApproval,
  listApprovals,
  type ApprovalStatusFilter,
  type ApprovalView,
} from '@palimpsest/application/candidates/approvals/approvals.handler';
import type { CandidateAnswer } from '@palimpsest/application/candidates/shared/envelope';
import type { ApprovalDecided } from '@palimpsest/application/candidates/approvals/approvals.handler';
import { listCommandApprovals, type CommandApprovalRow } from '@palimpsest/application/candidates/approvals/command-approvals';
import { UsageError } from '../cli-errors';
import { printJson } from '../runtime';
import { withStore } from '../store-access';

const STATUSES: ApprovalStatusFilter[] = ['pending', 'granted', 'declined', 'withdrawn', 'all'];
const COMMAND_STATUSES = ['pending', 'granted', 'declined', 'timed_out', 'all'] as const;

function operatorName(given: string | undefined): string {
  if (given) return given;
  try {
    return `cli:${userInfo().username}`;
  } catch {
    return 'cli:operator';
  }
}

function line(a: ApprovalView): string {
  return `${a.approval_id}  ${a.status.padEnd(8)} ${a.requested_at ?? ''}  candidate ${a.candidate} v${a.candidate_version}\n    ${a.prompt}\n`;
}

/**
 * `palimpsest approvals list|approve|decline`: the operator's side of owner policies with approve.
 * A waiting palimpsest_change_apply wakes as soon as the decision is recorded.
 */
export function registerApprovals(program: Command): void {
  const approvals = program.command('approvals').description('List, approve and decline the applies an owner policy holds for a person');
  approvals
    .command('list')
    .description('Approvals waiting for a decision (oldest first); --status for decided ones')
    .option('--status <status>', `pending | granted | declined | all`, 'pending')
    .option('--limit <n>', 'at most this many (1..500)', '50')
    .option('--json', 'print JSON')
    .action(async (opts: { status: string; limit: string; json?: boolean }) => {
      if (!STATUSES.includes(opts.status as ApprovalStatusFilter)) throw new UsageError(`--status must be one of ${STATUSES.join(', ')}`);
      const status = opts.status as ApprovalStatusFilter;
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be an integer from 1 to 500');
      const rows = await withStore({
        local: (ctx) => listApprovals(ctx.db, { status, limit }),
        gateway: async (gw) => (await gw.send<{ approvals: ApprovalView[] }>('GET', `/v1/approvals?status=${status}&limit=${limit}`)).approvals,
      });
      if (opts.json) return printJson(rows);
      if (rows.length === 0) process.stdout.write(`no ${opts.status === 'all' ? '' : `${opts.status} `}approvals\n`);
      for (const row of rows) process.stdout.write(line(row));
    });
  approvals
    .command('commands')
    .description('Command runs waiting for a person (run_command / start_command under approve); decide them with approve / decline')
    .option('--status <status>', 'pending | granted | declined | timed_out | all', 'pending')
    .option('--limit <n>', 'at most this many (1..500)', '50')
    .option('--json', 'print JSON')
    .action(async (opts: { status: string; limit: string; json?: boolean }) => {
      const status = COMMAND_STATUSES.find((s) => s === opts.status);
      if (!status) throw new UsageError(`--status must be one of ${COMMAND_STATUSES.join(', ')}`);
      const limit = Number(opts.limit);
      if (!Number.isInteger(limit) || limit < 1 || limit > 500) throw new UsageError('--limit must be an integer from 1 to 500');
      const rows = await withStore({
        local: (ctx) => listCommandApprovals(ctx.db, { status, limit }),
        gateway: async (gw) => (await gw.send<{ approvals: CommandApprovalRow[] }>('GET', `/v1/approvals/commands?status=${status}&limit=${limit}`)).approvals,
      });
      if (opts.json) return printJson(rows);
      if (rows.length === 0) process.stdout.write(`no ${status === 'all' ? '' : `${status} `}command approvals\n`);
      for (const row of rows) process.stdout.write(`${row.approval_id}  ${row.status.padEnd(9)} ${row.requested_at}  run ${row.run_id}\n    ${row.prompt}\n`);
    });
  for (const [name, decision] of [['approve', 'grant'], ['decline', 'decline']] as const) {
    approvals
      .command(name)
      .description(`${name === 'approve' ? 'Approve' : 'Decline'} a pending approval (the answer is final for that candidate version)`)
      .argument('<approval_id>', 'the approval_id from `palimpsest approvals list`')
      .option('--note <text>', 'a note recorded with the decision')
      .option('--by <name>', 'who decides (default cli:<user>)')
      .action(async (approvalId: string, opts: { note?: string; by?: string }) => {
        const input = { approval_id: approvalId, decision, decided_by: operatorName(opts.by), note: opts.note ?? null };
        const answer = await withStore({
          local: (ctx) => decideApproval(ctx, input),
          gateway: async (gw) => {
            const { approval_id: _inPath, note, ...rest } = input;
            const sent = await gw.request('POST', `/v1/admin/approvals/${encodeURIComponent(approvalId)}/decision`, { ...rest, ...(note === null ? {} : { note }) });
            if (typeof sent.body?.status !== 'string' || [401, 403, 413, 415, 429].includes(sent.status) || sent.status >= 500) throw gw.failure(sent);
            return sent.body as CandidateAnswer<ApprovalDecided>;
          },
        });
        printJson(answer);
        if (answer.status !== 'ok') process.exitCode = 1;
      });
  }
}
