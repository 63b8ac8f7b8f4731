import { Option, type Command } from 'commander';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import { isCallFailure, type Outcome } from '@palimpsest/protocol/outcome';
import { printJson } from '../runtime';
import { withStore } from '../store-access';

const FILE_STATES = ['in_sync', 'drifted', 'missing', 'pending', 'unreachable'];
const PAGE = 1000;

interface FileEntry {
  path: string;
  target_file_id: string;
  version: number;
  state: string;
  journal: { id: string; state: string } | null;
  code?: string;
}

/** One catalog call, the way `palimpsest call` makes it: here, or through the gateway holding the store. */
function call(operation: OperationName, args: Record<string, unknown>): Promise<Outcome> {
  return withStore({
    local: (ctx) => dispatchRequest(ctx, operation, args),
    gateway: (gw) => gw.send<Outcome>('POST', '/v1/admin/dispatch', { operation, args }),
  });
}

/** Every page of palimpsest_workspace_status, as one answer (the first page's fields, every page's files). */
async function allPages(args: Record<string, unknown>): Promise<Outcome> {
  let answer = await call('palimpsest_workspace_status', { ...args, limit: PAGE });
  const files = [...((answer.files as FileEntry[] | undefined) ?? [])];
  const first = answer;
  while (answer.status === 'ok' && typeof answer.next_cursor === 'string') {
    answer = await call('palimpsest_workspace_status', { ...args, limit: PAGE, cursor: answer.next_cursor });
    if (answer.status !== 'ok') return answer;
    files.push(...(answer.files as FileEntry[]));
  }
  return first.status === 'ok' ? { ...first, files, truncated: false, next_cursor: null } : first;
}

export function statusTable(files: FileEntry[]): string {
  const rows = [
    ['PATH', 'STATE', 'VERSION', 'TARGET', 'JOURNAL'],
    ...files.map((f) => [
      f.path,
      f.code ? `${f.state} (${f.code})` : f.state,
      String(f.version),
      f.target_file_id,
      f.journal ? `${f.journal.state} ${f.journal.id}` : '-',
    ]),
  ];
  const widths = rows[0]!.map((_, i) => Math.max(...rows.map((r) => r[i]!.length)));
  return rows.map((r) => r.map((cell, i) => (i === r.length - 1 ? cell : cell.padEnd(widths[i]!))).join('  ')).join('\n') + '\n';
}

function finish(answer: Outcome, print: () => void): void {
  if (isCallFailure(answer.status)) {
    printJson(answer);
    process.exitCode = 2;
    return;
  }
  print();
}

export function registerWorkspace(program: Command): void {
  const workspace = program.command('workspace').description('The files bound to targets under PALIMPSEST_WORKSPACE_ROOT');
  workspace
    .command('status')
    .description('Every bound file against the bytes it should hold (palimpsest_workspace_status), as a table')
    .option('--path-prefix <prefix>', 'only paths that start with this text')
    .addOption(new Option('--state <state>', 'only files in this state').choices(FILE_STATES))
    .option('--json', 'print the answer as JSON')
    .action(async (opts: { pathPrefix?: string; state?: string; json?: boolean }) => {
      const answer = await allPages({ path_prefix: opts.pathPrefix ?? null, state: opts.state ?? null });
      finish(answer, () => {
        if (opts.json) return printJson(answer);
        process.stdout.write(statusTable(answer.files as FileEntry[]));
      });
    });
  workspace
    .command('refresh')
    .description('Take the bound file\'s current bytes into its target (palimpsest_workspace_refresh), recorded with source external_disk')
    .argument('<target_file_id>', 'the target bound to the file')
    .action(async (targetFileId: string) => {
      const answer = await call('palimpsest_workspace_refresh', { target_file_id: targetFileId });
      finish(answer, () => printJson(answer));
    });
}
