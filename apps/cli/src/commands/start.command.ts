import type { Command } from 'commander';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { Params, Result } from '@palimpsest/protocol/catalog/operation-types';
import { describeStore } from '../runtime';
import { withStore } from '../store-access';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

type Call = <N extends OperationName>(name: N, args: Params<N>) => Promise<Result<N>>;

/**
 * `palimpsest tour`: open (and migrate) the configured store, then walk one guarded edit through it so a
 * newcomer sees the whole loop — create, a stale guard refused, an edit accepted, replay verified.
 * (`npm start` runs the HTTP gateway, `palimpsest api`.)
 */
export function registerStart(program: Command): void {
  program
    .command('tour')
    .description('Open the store, migrate it, and run a short guided transaction tour')
    .action(async () => {
      process.stdout.write(`palimpsest: store ${describeStore()}\n`);
      await withStore({
        local: (ctx) => tour((name, args) => dispatch(ctx, name, args)),
        gateway: (gw) => tour(<N extends OperationName>(operation: N, args: Params<N>) => gw.dispatch(operation, args)),
      });
    });
}

async function tour(call: Call): Promise<void> {
  const created = await call(OP.palimpsest_initialize_target, { filename: 'tour.md', content: 'alpha beta alpha\r\n' });
  show('initialize_target (CRLF upload)', created, ['target_file_id', 'version', 'current_hash']);
  if (created.status !== 'ok') return;
  const id = created.target_file_id;
  show(
    'submit_edits without a selector',
    await call(OP.palimpsest_submit_edits, { target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }] }),
    ['status', 'failure_reason', 'failure_detail'],
  );
  show(
    'submit_edits with occurrence_index 2',
    await call(OP.palimpsest_submit_edits, { target_file_id: id, intent: 'Rename alpha', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }] }),
    ['status', 'version', 'after_hash'],
  );
  show('replay', await call(OP.palimpsest_replay, { target_file_id: id }), ['status', 'materialized_state_matches']);
  process.stdout.write('\nNext: `palimpsest call <operation> < args.json`, `palimpsest operations` (in the checkout: `npx palimpsest …`).\n');
}

function show(title: string, result: Record<string, unknown>, keys: string[]): void {
  const picked = Object.fromEntries(keys.map((k) => [k, result[k]]));
  process.stdout.write(`\n• ${title}\n  ${JSON.stringify(picked)}\n`);
}
