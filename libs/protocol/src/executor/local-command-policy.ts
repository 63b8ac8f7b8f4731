import Ajv2020 from 'ajv/dist/2020';
import type { JsonSchema } from '../catalog/operation-spec';
import { EXECUTOR_TOOL_NAMES } from './executor-messages';

/** The protocol's localCommandPolicy: what a machine's owner sets for one project; every field optional. */
export const LOCAL_COMMAND_POLICY_SCHEMA: JsonSchema = {
  $schema: 'https://json-schema.org/draft/2020-12/schema',
  type: 'object',
  properties: {
    mode: { type: 'string', enum: ['allow_all', 'allow_list', 'read_only'] },
    allow: { type: 'array', items: { type: 'string' } },
    deny: { type: 'array', items: { type: 'string' } },
    shell: { type: 'boolean' },
    approve: { type: 'boolean' },
    tools: { type: 'array', items: { type: 'string', enum: [...EXECUTOR_TOOL_NAMES] } },
  },
  additionalProperties: false,
};

const validate = new Ajv2020({ strict: true, allErrors: false }).compile(LOCAL_COMMAND_POLICY_SCHEMA);

/** The policy, or why it is refused (`<pointer>: <message>`). */
export function checkLocalCommandPolicy(value: unknown): { ok: true } | { ok: false; problem: string } {
  if (validate(value)) return { ok: true };
  const e = validate.errors![0]!;
  const extra = (e.params as { additionalProperty?: string }).additionalProperty;
  return { ok: false, problem: `${e.instancePath || '(policy)'}${extra ? `/${extra}` : ''}: ${e.message ?? 'is invalid'}` };
}
