import { sha256Hex } from '../text/sha256';
import { applyProposal } from '../transaction/apply-proposal';
import { parseProposal } from '../transaction/parse-proposal';
import { PROTOCOL } from '../transaction/transaction.types';
import type { ResolvedOperation } from './candidate.events';

/**
 * What applying a candidate submits to one target: its resolved operations as a tx/2 record of span
 * operations, which the target aggregate accepts like any direct submission and replay re-applies
 * under the ordinary span runtime. No runtime exists only for candidates.
 */

export function changeIdOf(op: ResolvedOperation): string {
  return `c${op.candidate_version}_${op.index}`;
}

export function targetProposal(intent: string, operations: readonly ResolvedOperation[]): Record<string, unknown> {
  return {
    intent,
    operations: operations.map((op) => {
      const span: Record<string, unknown> = {
        op: 'span',
        start: op.start,
        end: op.end,
        expected_text: op.expected_text,
        replace: op.replace,
        change_id: changeIdOf(op),
      };
      if (op.rationale !== null) span.rationale = op.rationale;
      if (op.risk !== null) span.risk = op.risk;
      return span;
    }),
  };
}

/** Re-apply a target's resolved operations to its base through the tx/2 runtime: the candidate's text, or null. */
export function replayOperations(base: string, operations: readonly ResolvedOperation[]): string | null {
  if (operations.length === 0) return base;
  const parsed = parseProposal(PROTOCOL.tx2, targetProposal('replay', operations));
  if (!parsed.ok) return null;
  const { protocol_version, runtime_version, record } = parsed.proposal;
  const result = applyProposal({ protocol_version, runtime_version, record }, base);
  return result.ok ? result.text : null;
}

export function reproduces(base: string, operations: readonly ResolvedOperation[], expectedHash: string): boolean {
  const text = replayOperations(base, operations);
  return text !== null && sha256Hex(text) === expectedHash;
}

export function defaultIntent(candidateId: string, version: number): string {
  return `Apply candidate ${candidateId} version ${version}`;
}
