import type { Tool } from '@modelcontextprotocol/sdk/types.js';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import type { OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { isSubmission } from '@palimpsest/protocol/catalog/operations/submissions.operations';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { operationRefusal } from '@palimpsest/core/policy/policy-decisions';
import { advertisedSchema } from './advertised-schema';
import type { ResponseMode } from './response-mode';

export type Profile = 'full' | 'read-only';

function describe(op: OperationSpec, mode: ResponseMode): string {
  if (mode === 'compact' && isSubmission(op.name)) {
    return `${op.description} Compact presentation: accepted results omit evidence (see presentation.omitted).`;
  }
  return op.description;
}

/** tools/list, generated from the catalog; a read-only profile advertises read tools only, a policy only its tools. */
export function listTools(profile: Profile, mode: ResponseMode, policy?: OwnerPolicy): Tool[] {
  const visible = (op: OperationSpec) => (profile === 'full' || op.readOnly) && (!policy || operationRefusal(policy, op) === null);
  return CATALOG.filter(visible).map((op) => {
    const inputSchema: Record<string, unknown> = advertisedSchema(op.params);
    if (op.examples.length) inputSchema.examples = structuredClone(op.examples.map((e) => e.params));
    if (op.capabilities) inputSchema['x-palimpsest-capabilities'] = structuredClone(op.capabilities);
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
