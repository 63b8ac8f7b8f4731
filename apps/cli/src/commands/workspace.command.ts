import { Option, type Command } from 'commander';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { Params, Result } from '@palimpsest/protocol/catalog/operation-types';
import { isCallFailure } from '@palimpsest/protocol/outcome';
import { printJson } from '../runtime';
import { withStore } from '../store-access';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

const FILE_STATES = ['in_sync', 'drifted', 'missing', 'pending', 'unreachable'] as const;
const PAGE = 1000;

type StatusAnswer = Result<OP.palimpsest_workspace_status>;
type FileEntry = Extract<StatusAnswer, { status: 'ok' }>['files'][number];

/** One catalog call, the way `palimpsest call` makes it: here, or through the gateway holding the store. */
function call<N extends OperationName>(operation: N, args: Params<N>): Promise<Result<N>> {
  return withStore({
    local: (ctx) => dispatch(ctx, operation, args),
    gateway: (gw) => gw.dispatch(operation, args),
  });
}

/** Every page of palimpsest_workspace_status, as one answer (the first page's fields, every page's files). */
async function allPages(args: Params<OP.palimpsest_workspace_status>): Promise<StatusAnswer> {
  const first = await call(OP.palimpsest_workspace_status, { ...args, limit: PAGE });
  if (first.status !== 'ok') return first;
  const files = [...first.files];
  let cursor = first.next_cursor;
  while (typeof cursor === 'string') {
    const answer = await call(OP.palimpsest_workspace_status, { ...args, limit: PAGE, cursor });
    if (answer.status !== 'ok') return answer;
    files.push(...answer.files);
    cursor = answer.next_cursor;
  }
  return { ...first, files, truncated: false, next_cursor: null };
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

function finish(answer: { status: StatusAnswer['status'] | Result<OP.palimpsest_workspace_refresh>['status'] }, print: () => void): void {
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
    .action(async (opts: { pathPrefix?: string; state?: (typeof FILE_STATES)[number]; json?: boolean }) => {
      const answer = await allPages({ path_prefix: opts.pathPrefix ?? null, state: opts.state ?? null });
      finish(answer, () => {
        if (opts.json) return printJson(answer);
        if (answer.status === 'ok') process.stdout.write(statusTable(answer.files));
      });
    });
  workspace
    .command('refresh')
    .description('Take the bound file\'s current bytes into its target (palimpsest_workspace_refresh), recorded with source external_disk')
    .argument('<target_file_id>', 'the target bound to the file')
    .action(async (targetFileId: string) => {
      const answer = await call(OP.palimpsest_workspace_refresh, { target_file_id: targetFileId });
      finish(answer, () => printJson(answer));
    });
}
