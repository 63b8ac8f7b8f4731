import { toCanonicalLf } from '../text/canonical-text';
import { codePointLength } from '../text/code-points';
import { readProposalBody } from '../transaction/parse-proposal';
import { PROTOCOL, type ChangeFact } from '../transaction/transaction.types';

/** One change of an inverse: a tx/2 span on the buffer the inverse changes before it leave. */
export interface InverseSpan {
  start: number;
  end: number;
  expected_text: string;
  replace: string;
}

/**
 * The inverse of an accepted tx/1 or tx/2 transaction, from its record and the facts it recorded,
 * without its preimage: change i replaced `old` (its match or expected_text) at span_start of the
 * buffer the changes before it left with `new` (its replace), so undoing the changes last first puts
 * `old` back over [span_start, span_start + |new|). Null when the record cannot say (a whole
 * replacement, another record shape, facts that do not line up): the caller derives the preimage.
 */
export function inverseFromRecord(protocolVersion: string | null, record: Record<string, unknown>, facts: readonly ChangeFact[]): InverseSpan[] | null {
  if (protocolVersion !== PROTOCOL.tx1 && protocolVersion !== PROTOCOL.tx2) return null;
  const read = readProposalBody(protocolVersion, { intent: record.intent, edits: record.edits, operations: record.operations });
  if (!read.ok || read.body.protocol === PROTOCOL.tx3) return null;
  const changes = read.body.changes;
  if (changes.length !== facts.length) return null;
  const out: InverseSpan[] = [];
  for (let i = changes.length - 1; i >= 0; i--) {
    const c = changes[i]!;
    const f = facts[i]!;
    const old = toCanonicalLf(c.kind === 'match' ? c.match : c.expected_text);
    const now = toCanonicalLf(c.replace);
    if (f.change_index !== c.change_index || codePointLength(old) !== f.matched_chars || codePointLength(now) !== f.replacement_chars) return null;
    out.push({ start: f.span_start, end: f.span_start + f.replacement_chars, expected_text: now, replace: old });
  }
  return out;
}
