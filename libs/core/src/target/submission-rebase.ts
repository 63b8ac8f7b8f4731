import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength } from '../text/code-points';
import { sha256Hex } from '../text/sha256';
import { applyProposal } from '../transaction/apply-proposal';
import { readProposalBody, type PlannedChange, type ProposalInput, type SpanChange } from '../transaction/parse-proposal';
import { canonicalJson } from '../transaction/record-codec';
import { PROTOCOL, type ParsedProposal, type TxSuccess } from '../transaction/transaction.types';
import type { Toucher } from '../rebase/effect-step';
import { changedRangesNow, conflictingWriters, rebaseSpans, type RebaseSpan } from '../rebase/proposal-rebase';
import type { SinceLookup, SubmissionCommand } from './target.commands';
import type { RebasedFrom } from './target.events';
import type { ExistingTarget } from './target.state';

/**
 * Safe rebase of a stale submission (rebase: true): carried through the acceptances since its
 * expected_target_version when none of them touched what it changes. tx/2 spans move by what changed
 * before them and must not meet any later effect (their context included); tx/1 (and tx/2 match)
 * changes, alone or beside spans, are found again on the current text; either way every range the change writes must lie
 * outside — not even against — every range written since. Otherwise it stays stale, naming the writers.
 */
export type RebaseOutcome =
  | { kind: 'rebased'; stored: Record<string, unknown>; content: string; result: TxSuccess; rebased: RebasedFrom }
  | { kind: 'stale'; diagnostic: Record<string, unknown> };

const named = (conflicts: Toucher[]) => ({ rebase: 'conflict', conflicting_attempts: conflicts });

/** The since lookup covers exactly the versions between the guard and the locked state. */
function covers(since: SinceLookup | null | undefined, from: number, state: ExistingTarget): since is SinceLookup {
  if (!since || since.from_version !== from || since.steps.length !== state.version - from) return false;
  return since.steps.every((s, i) => s.after_version === from + i + 1);
}

/**
 * Null when no rebase applies (not asked, not stale by version, the lookup missing); otherwise the
 * rebased record and its application on the current text, or why it stays stale.
 */
export function rebaseSubmission(
  cmd: SubmissionCommand,
  state: ExistingTarget,
  proposal: ParsedProposal,
  stored: Record<string, unknown>,
  runtime: string,
  guard: { version: number | null; hash: string | null },
): RebaseOutcome | null {
  if (cmd.rebase !== true || cmd.type !== 'SubmitProposal' || guard.version === null || guard.version >= state.version) return null;
  const since = cmd.lookups.since;
  if (!covers(since, guard.version, state)) return null;
  if (guard.hash !== null && guard.hash !== since.from_hash) return { kind: 'stale', diagnostic: { rebase: 'hash_mismatch' } };
  const everyone = since.steps.map((s) => ({ attempt_id: s.attempt_id, version: s.after_version }));
  const read = readProposalBody(proposal.protocol_version, proposal.record as ProposalInput);
  if (!read.ok || read.body.protocol === PROTOCOL.tx3) return { kind: 'stale', diagnostic: named(everyone) };
  const changes: readonly PlannedChange[] = read.body.changes;
  const spans = changes.filter((c): c is SpanChange => c.kind === 'span');

  let record = stored;
  const moved: RebasedFrom['spans'] = [];
  if (spans.length > 0) {
    const input: RebaseSpan[] = spans.map((c) => ({
      start: c.start,
      end: c.end,
      replaceLength: codePointLength(toCanonicalLf(c.replace)),
      beforeLength: c.expected_before === null ? 0 : codePointLength(toCanonicalLf(c.expected_before)),
      afterLength: c.expected_after === null ? 0 : codePointLength(toCanonicalLf(c.expected_after)),
    }));
    const rebased = rebaseSpans(input, since.steps);
    if (rebased.kind === 'conflict') return { kind: 'stale', diagnostic: named(rebased.conflicts) };
    // Moves come in the spans' order; a tx/2 mixing spans and matches keeps its matches as written, to be found again below.
    const moveOf = new Map(rebased.moves.map((m, i) => [spans[i]!.change_index, m]));
    const ops = (stored.operations as Record<string, unknown>[]).map((op, i) => {
      const m = moveOf.get(i + 1);
      return m ? { ...op, start: m.to.start, end: m.to.end } : op;
    });
    record = { ...stored, operations: ops };
    for (const [changeIndex, m] of moveOf) moved.push({ change_index: changeIndex, from_start: m.from.start, from_end: m.from.end, start: m.to.start, end: m.to.end });
  }
  const result = applyProposal({ protocol_version: proposal.protocol_version, runtime_version: runtime, record }, state.content, {
    observedVersion: state.version,
    observedHash: state.current_hash,
  });
  if (!result.ok) return { kind: 'stale', diagnostic: { rebase: 'failed_on_current', rebase_failure_reason: result.failure_reason, rebase_failure_detail: result.failure_detail } };
  const writers = conflictingWriters(result.effects, changedRangesNow(since.steps));
  if (writers.length > 0) return { kind: 'stale', diagnostic: named(writers) };
  return {
    kind: 'rebased',
    stored: record,
    content: canonicalJson(record),
    result,
    rebased: {
      from_version: guard.version,
      through_attempt_ids: since.steps.map((s) => s.attempt_id),
      spans: moved,
      submitted_content_hash: sha256Hex(canonicalJson(stored)),
    },
  };
}
