import { PROTOCOL, type ProtocolVersion } from '../transaction/transaction.types';
import type { ProposalInput } from '../transaction/parse-proposal';
import type { OperationKind } from './candidate.events';

/**
 * The wire shape of one candidate operation, translated into the single-change proposal of the
 * runtime that owns its kind: `edit` is a tx/1 typed edit, `match` and `span` are tx/2 operations,
 * `replace_all` is the tx/3 whole replacement.
 */

export const OPERATION_KINDS: readonly OperationKind[] = ['edit', 'match', 'span', 'replace_all'];

/** Fields that address the operation, not the change itself. */
const ADDRESSING = new Set(['kind', 'target_file_id', 'handle', 'range']);

export const HANDLE_PATTERN = /^[A-Za-z0-9_-]{1,64}$/;

export interface SingleChange {
  protocol: ProtocolVersion;
  input: ProposalInput;
  /** The text the caller asked to write, before canonicalization. */
  requested: string;
}

function changeFields(op: Record<string, unknown>): Record<string, unknown> {
  const out: Record<string, unknown> = {};
  for (const key of Object.keys(op)) if (!ADDRESSING.has(key) && op[key] !== undefined) out[key] = op[key];
  return out;
}

/** The runtime proposal of one operation; `span` must already carry numeric start/end. */
export function singleChange(kind: OperationKind, op: Record<string, unknown>, intent: string): SingleChange {
  const fields = changeFields(op);
  switch (kind) {
    case 'edit':
      return { protocol: PROTOCOL.tx1, input: { intent, edits: [fields] }, requested: String(fields.replace ?? '') };
    case 'match':
      return { protocol: PROTOCOL.tx2, input: { intent, operations: [{ op: 'match', ...fields }] }, requested: String(fields.replace ?? '') };
    case 'span':
      return { protocol: PROTOCOL.tx2, input: { intent, operations: [{ op: 'span', ...fields }] }, requested: String(fields.replace ?? '') };
    case 'replace_all':
      return { protocol: PROTOCOL.tx3, input: { intent, replacement: fields.replacement }, requested: String(fields.replacement ?? '') };
  }
}

export const isOperationKind = (value: unknown): value is OperationKind => OPERATION_KINDS.includes(value as OperationKind);

/** A reference to an earlier operation's handle: `{"handle": "name"}`. */
export function handleReference(value: unknown): string | null {
  if (value === null || typeof value !== 'object' || Array.isArray(value)) return null;
  const keys = Object.keys(value);
  const name = (value as Record<string, unknown>).handle;
  return keys.length === 1 && typeof name === 'string' && HANDLE_PATTERN.test(name) ? name : null;
}
