import { invertEffects } from '@palimpsest/core/rebase/effect-inversion';
import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import { acceptedAttemptAndLater, type EffectStepRow } from '@palimpsest/projections/accepted-effects.queries';
import { knownSteps, REBASE_MAX_STEPS } from '../submit-proposal/rebase-lookup';
import type { TextEffect } from '@palimpsest/core/transaction/text-effect';
import { inverseFromRecord, type InverseSpan } from '@palimpsest/core/rebase/record-inversion';
import type { ChangeFact } from '@palimpsest/core/transaction/transaction.types';
import type { AppContext } from '../app-context';
import { withEffects } from '../changes-since/effect-history';
import { foldTextAt } from '../history/as-of/text-as-of';
import { targetIdOf } from '../shared/target-lookup';
import { submitProposal, type SubmissionResult } from '../submit-proposal/submit-proposal.handler';

/** The source an undo's attempt is recorded with (a file's history tells it apart from an agent's edit). */
export const UNDO_SOURCE = 'undo';

export interface UndoAttemptInput {
  target_file_id: unknown;
  attempt_id: unknown;
  client_request_id?: string | null;
}

export type UndoResult = (SubmissionResult & { undone_attempt_id: string }) | ReturnType<typeof attemptNotFound> | InvalidArgument;

function attemptNotFound(targetId: string, attemptId: string) {
  return {
    status: 'not_found' as const,
    code: 'attempt_not_found',
    target_file_id: targetId,
    failure_detail: `No accepted attempt ${attemptId} on target ${targetId}. palimpsest_changes_since lists the accepted ones.`,
    next_actions: [{ operation: OP.palimpsest_changes_since, reason: 'List the accepted changes of this target', params: { target_file_id: targetId, from_version: 0 } }],
  };
}

/**
 * palimpsest_undo_attempt: the inverse of an accepted attempt — each of its effects' new text put back
 * to what it replaced, a tx/2 span record written against the version the attempt made — submitted
 * through the ordinary submission path with rebase: true. So it lands on the current text when no later
 * acceptance touched those ranges (moved by whatever changed elsewhere), a bound file is published like
 * any write, and otherwise the stale refusal is recorded, naming the later attempts (undo_conflict).
 * The undo is an accepted attempt like any other: undoing it redoes.
 */
export async function undoAttempt(ctx: AppContext, input: UndoAttemptInput, sessionId: string | null = null): Promise<UndoResult> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  if (!isUuid(input.attempt_id)) {
    return invalidArgument('invalid_attempt_id', 'attempt_id must be a UUID.', { argument: 'attempt_id' });
  }
  const attemptId = input.attempt_id.toLowerCase();
  const read = await acceptedAttemptAndLater(ctx.db, attemptId, REBASE_MAX_STEPS);
  if (!read || read.attempt.target_id !== targetId) return attemptNotFound(targetId, attemptId);
  const row = read.attempt;
  const [accepted] = await withEffects(ctx.db, [row]);
  const operations = (await inverseOf(ctx, accepted!, row)).map((op, i) => ({ op: 'span', change_id: `undo_${String(i + 1).padStart(3, '0')}`, ...op }));
  if (operations.length === 0) {
    return invalidArgument('nothing_to_undo', `Attempt ${attemptId} changed no text: there is nothing to undo.`, { argument: 'attempt_id', target_file_id: targetId });
  }
  const answer = await submitProposal(ctx, {
    target_file_id: targetId,
    protocol_version: PROTOCOL.tx2,
    proposal: { intent: `Undo attempt ${attemptId}`, operations },
    expected_target_version: accepted!.after_version,
    client_request_id: input.client_request_id ?? undefined,
    source: UNDO_SOURCE,
    session_id: sessionId,
    rebase: true,
    knownSteps: knownSteps(row.after_version, await withEffects(ctx.db, read.later)),
  });
  return undoAnswer(answer, targetId, attemptId, accepted!.after_version);
}

/**
 * The inverse as tx/2 spans on the text the attempt made: from its record and facts when they say it
 * (tx/1, tx/2: no history read), else from its effects over its preimage (the text as of the version
 * before it, folded as every as-of read is).
 */
async function inverseOf(ctx: AppContext, accepted: EffectStepRow & { effects: TextEffect[] }, recorded: { content: string; change_facts: unknown }): Promise<InverseSpan[]> {
  const record = parseRecord(recorded.content);
  const facts = Array.isArray(recorded.change_facts) ? (recorded.change_facts as ChangeFact[]) : null;
  const fromRecord = record && facts ? inverseFromRecord(accepted.protocol_version, record, facts) : null;
  if (fromRecord) return fromRecord;
  const preimage = await foldTextAt(ctx, accepted.target_id, accepted.before_version);
  const inverse = invertEffects(preimage, accepted.effects);
  // Last first: each span's offsets hold in the buffer the ones before it leave.
  return inverse.map((e, i) => ({ start: e.start, end: e.end, expected_text: accepted.effects[i]!.inserted, replace: e.inserted })).reverse();
}

function parseRecord(content: string): Record<string, unknown> | null {
  try {
    const value: unknown = JSON.parse(content);
    return value !== null && typeof value === 'object' && !Array.isArray(value) ? { ...value } : null;
  } catch {
    return null;
  }
}

/** The submission's answer, said as an undo: a stale refusal naming later writers is an undo conflict. */
function undoAnswer(answer: SubmissionResult, targetId: string, attemptId: string, afterVersion: number): UndoResult {
  if (answer.status === 'accepted') return { ...answer, undone_attempt_id: attemptId };
  const diagnostic = 'diagnostic' in answer ? (answer.diagnostic as Record<string, unknown> | undefined) : undefined;
  const conflicts = diagnostic?.conflicting_attempts;
  if (answer.status !== 'rejected' || !Array.isArray(conflicts)) return { ...answer, undone_attempt_id: attemptId };
  const names = conflicts.map((c: { attempt_id: string; version: number }) => `${c.attempt_id} (version ${c.version})`).join(', ');
  return {
    ...answer,
    undone_attempt_id: attemptId,
    code: 'undo_conflict',
    failure_detail: `Attempt ${attemptId} cannot be undone: later attempts changed the text it wrote: ${names}. See what they changed, then undo them first or edit by hand.`,
    next_actions: [
      { operation: OP.palimpsest_changes_since, reason: 'See what changed since the attempt', params: { target_file_id: targetId, from_version: afterVersion } },
    ],
  };
}
