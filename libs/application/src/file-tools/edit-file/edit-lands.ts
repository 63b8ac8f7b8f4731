import { decide } from '@palimpsest/core/target/target.decider';
import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import { toCanonicalLf } from '@palimpsest/core/text/canonical-text';
import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import { admit } from '@palimpsest/protocol/admission';
import { operationSpec } from '@palimpsest/protocol/catalog/catalog';
import { guardedCommand, type GuardedChange } from '../shared/guarded-write';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/** Never stored: the check decides and discards. */
const CHECK_ATTEMPT_ID = '00000000-0000-4000-8000-000000000002';

/** edit_file's change: one tx/1 edit of oldString to newString, both taken to LF (the file keeps its endings). */
export function editFileChange(path: string, oldString: string, newString: string): GuardedChange {
  return { tool: OP.edit_file, protocol: PROTOCOL.tx1, proposal: { intent: `edit_file ${path}`, edits: [{ match: toCanonicalLf(oldString), replace: toCanonicalLf(newString) }] } };
}

/**
 * Whether edit_file {oldString, newString} sent now would be admitted and accepted on `state` and leave
 * exactly `intended`: the check every call an edit_file refusal offers passes (the same admission, command
 * and decider the call meets). Nothing is written.
 */
export function editLands(state: ExistingTarget, oldString: string, newString: string, intended: string, now: string): boolean {
  if (admit(operationSpec(OP.edit_file), { path: 'p', oldString, newString }) !== null) return false;
  const d = decide(guardedCommand(state, editFileChange('p', oldString, newString), CHECK_ATTEMPT_ID, now), state);
  return d.kind === 'decided' && d.events[0]?.type === 'ProposalAccepted' && d.state.exists && d.state.content === intended;
}
