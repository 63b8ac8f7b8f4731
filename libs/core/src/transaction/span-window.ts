import { readProposalBody, type ProposalInput } from './parse-proposal';
import type { RecordedProposal } from './apply-proposal';
import { PROTOCOL, RUNTIME } from './transaction.types';

/** A part of the buffer that holds everything a record's changes read, and the record shifted onto it. */
export interface SpanWindow {
  /** Code points [start, end) of the transaction-start buffer. */
  start: number;
  end: number;
  /** The same record with every span moved by -start: applied to the window, it reads what it read in the buffer. */
  record: Record<string, unknown>;
}

/**
 * For a well-formed tx/2 record of span operations only (runtimes 0.3.0 and 0.5.0), the window of a
 * `length`-code-point buffer outside which no change reads or writes; null for any other record
 * (those are applied to the whole text).
 *
 * Why it is exact: every change k reads [start_k - |expected_before_k|, end_k + |expected_after_k|) of the
 * buffer the earlier changes left. Earlier changes only edit inside the window, so its start stays where
 * it is and its end moves by at most `drift` (the sum over changes of |replace| + (end - start), at
 * least what they add or remove); widening the reach by `drift` on each side keeps every read inside
 * it. A window clamped to an end of the buffer is that end, so the bounds checks also see the same
 * thing. A record that fails on the window is applied to the whole text, which reports its own failure.
 */
export function spanWindow(p: RecordedProposal, length: number): SpanWindow | null {
  if (p.protocol_version !== PROTOCOL.tx2) return null;
  if (p.runtime_version !== RUNTIME.spanOps && p.runtime_version !== RUNTIME.spanContext) return null;
  const read = readProposalBody(PROTOCOL.tx2, p.record as ProposalInput);
  if (!read.ok || read.body.protocol !== PROTOCOL.tx2) return null;
  let lo = Infinity;
  let hi = 0;
  let drift = 0;
  for (const c of read.body.changes) {
    if (c.kind !== 'span' || !Number.isSafeInteger(c.start) || !Number.isSafeInteger(c.end)) return null;
    lo = Math.min(lo, c.start - (c.expected_before?.length ?? 0));
    hi = Math.max(hi, c.end + (c.expected_after?.length ?? 0));
    drift += c.replace.length + (c.end - c.start);
  }
  const start = Math.max(0, lo - drift);
  const end = Math.min(length, hi + drift);
  if (start > end) return null;
  const operations = (p.record.operations as Record<string, unknown>[]).map((op) => ({
    ...op,
    start: (op.start as number) - start,
    end: (op.end as number) - start,
  }));
  return { start, end, record: { ...p.record, operations } };
}
