import { decide } from '@palimpsest/core/target/target.decider';
import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import { toCanonicalLf } from '@palimpsest/core/text/canonical-text';
import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import { admit } from '@palimpsest/protocol/admission';
import { operationSpec } from '@palimpsest/protocol/catalog/catalog';

/** Never stored: the check decides and discards. */
const CHECK_ATTEMPT_ID = '00000000-0000-4000-8000-000000000002';

/**
 * Whether edit_file {oldString, newString} sent now would be admitted and accepted on `state` and leave
 * exactly `intended`: the check every call an edit_file refusal offers passes (the same admission and
 * decider the call meets). Nothing is written.
 */
export function editLands(state: ExistingTarget, oldString: string, newString: string, intended: string, now: string): boolean {
  if (admit(operationSpec('edit_file'), { path: 'p', oldString, newString }) !== null) return false;
  const d = decide(
    {
      type: 'SubmitProposal',
      now,
      attempt_id: CHECK_ATTEMPT_ID,
      target_id: state.target_id,
      protocol_version: PROTOCOL.tx1,
      proposal: { intent: 'edit_file check', edits: [{ match: toCanonicalLf(oldString), replace: toCanonicalLf(newString) }] },
      expected_target_version: state.version,
      expected_current_hash: state.current_hash,
      source: 'edit_file',
      lookups: { keyed: null, parent: null },
    },
    state,
  );
  return d.kind === 'decided' && d.events[0]?.type === 'ProposalAccepted' && d.state.exists && d.state.content === intended;
}
