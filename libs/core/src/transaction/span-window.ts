import { readProposalBody, type ProposalInput } from './parse-proposal';
import type { RecordedProposal } from './apply-proposal';
import { PROTOCOL, RUNTIME } from './transaction.types';

/** One span operation of a record, as a one-operation record to apply to the part of the buffer it reads. */
export interface SpanStep {
  /** How far (code points) the operation reads before its start and after its end. */
  before: number;
  after: number;
  start: number;
  end: number;
  /** The one-operation record with the span moved by -`shift`. */
  recordAt(shift: number): Record<string, unknown>;
}

/**
 * For a well-formed tx/2 record of span operations only (runtimes 0.3.0 and 0.5.0), its operations as
 * steps the replay verifier may re-run one by one, each on a window of the buffer; null for any other
 * record (those are re-run on the whole text).
 *
 * Why it is exact: a tx/2 transaction applies its changes in order, each to the buffer the earlier ones
 * left, and a span change reads only [start - |expected_before|, end + |expected_after|) of it (clamped
 * to the buffer), after checks that depend on the record alone (checked here on the whole record, so
 * shape, profile and duplicate ids are decided as applyProposal decides them). Applied to a window
 * that holds that range (and is clamped where the buffer is), under the same runtime, a change reads
 * the same text and writes the same replacement. Only warnings and facts differ, and the effects' check
 * uses neither; a step that fails on its window is re-run on the whole text, which reports its own failure.
 */
export function spanSteps(p: RecordedProposal): SpanStep[] | null {
  if (p.protocol_version !== PROTOCOL.tx2) return null;
  if (p.runtime_version !== RUNTIME.spanOps && p.runtime_version !== RUNTIME.spanContext) return null;
  const read = readProposalBody(PROTOCOL.tx2, p.record as ProposalInput);
  if (!read.ok || read.body.protocol !== PROTOCOL.tx2) return null;
  const items = p.record.operations as Record<string, unknown>[];
  const steps: SpanStep[] = [];
  for (const [i, c] of read.body.changes.entries()) {
    if (c.kind !== 'span' || !Number.isSafeInteger(c.start) || !Number.isSafeInteger(c.end)) return null;
    const item = items[i]!;
    steps.push({
      start: c.start,
      end: c.end,
      // UTF-16 lengths bound the code points the canonical context has.
      before: c.expected_before?.length ?? 0,
      after: c.expected_after?.length ?? 0,
      recordAt: (shift) => ({ ...p.record, operations: [{ ...item, start: c.start - shift, end: c.end - shift }] }),
    });
  }
  return steps;
}
