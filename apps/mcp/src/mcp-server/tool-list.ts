import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import type { OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { RUNTIME, PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import {
  REPLACEMENT_MAX_CODE_POINTS,
  REPLACEMENT_MAX_UTF8_BYTES,
} from '@palimpsest/core/transaction/replacement-admission';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { operationRefusal } from '@palimpsest/core/policy/policy-decisions';
import type { ResponseMode } from './response-mode';

export type Profile = 'full' | 'read-only';

/** Derived from the runtime constants, so what a host reads is what the runtime enforces. */
function capabilitiesFor(op: OperationSpec): Record<string, unknown> | undefined {
  if (op.name === 'palimpsest_submit_operations') {
    return {
      protocol: PROTOCOL.tx2,
      runtime: RUNTIME.spanOps,
      operations: ['match', 'span'],
      coordinates: 'unicode_code_points',
      insertion: 'start == end with expected_text ""',
      span_context: { fields: ['expected_before', 'expected_after'], runtime: RUNTIME.spanContext },
    };
  }
  if (op.name === 'palimpsest_submit_replacement') {
    return {
      protocol: PROTOCOL.tx3,
      runtime: RUNTIME.replacement,
      operations: ['replace_all'],
      limits: { max_code_points: REPLACEMENT_MAX_CODE_POINTS, max_utf8_bytes: REPLACEMENT_MAX_UTF8_BYTES },
    };
  }
  return undefined;
}

function describe(op: OperationSpec, mode: ResponseMode): string {
  if (mode === 'compact' && op.name.startsWith('palimpsest_submit_')) {
    return `${op.description} Compact presentation: accepted results omit evidence (see presentation.omitted).`;
  }
  return op.description;
}

/** tools/list, generated from the catalog; a read-only profile advertises read tools only, a policy only its tools. */
export function listTools(profile: Profile, mode: ResponseMode, policy?: OwnerPolicy): Tool[] {
  const visible = (op: OperationSpec) => (profile === 'full' || op.readOnly) && (!policy || operationRefusal(policy, op) === null);
  return CATALOG.filter(visible).map((op) => {
    const inputSchema: Record<string, unknown> = { ...op.params };
    if (op.examples.length) inputSchema.examples = structuredClone(op.examples.map((e) => e.params));
    const caps = capabilitiesFor(op);
    if (caps) inputSchema['x-palimpsest-capabilities'] = caps;
    return {
      name: op.name,
      title: op.title,
      description: describe(op, mode),
      inputSchema: inputSchema as Tool['inputSchema'],
      outputSchema: structuredClone(op.result) as Tool['outputSchema'],
      annotations: { title: op.title, readOnlyHint: op.readOnly, destructiveHint: false, idempotentHint: op.readOnly },
    };
  });
}
