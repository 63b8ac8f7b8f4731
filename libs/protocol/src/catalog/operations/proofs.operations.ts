import { statusResult } from '../fragments';
import { defineOperation, type JsonSchema } from '../operation-spec';

/**
 * Proofs of the tamper-evident log: every event is a leaf of a Merkle log (RFC 9162) whose checkpoints
 * the service signs (C2SP signed notes); these answer the audit paths a verifier checks against them.
 */

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object', additionalProperties: false, required, properties,
});

const checkpointSize: JsonSchema = { type: ['integer', 'null'], minimum: 1, description: 'A signed checkpoint\'s size (default: the latest).' };

export const proveEvent = defineOperation({
  name: 'palimpsest_prove_event',
  title: 'Prove an event is in the log',
  description:
    'The audit path (RFC 9162) of the event at a global position to a signed checkpoint of the log: hash the leaf up the path and compare with the checkpoint\'s root. not_found while no checkpoint covers it yet.',
  readOnly: true,
  params: closed({
    global_position: { type: 'integer', minimum: 1, description: 'The event\'s position in the log (its log_sequence).' },
    checkpoint_size: checkpointSize,
  }, ['global_position']),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found'],
  examples: [],
  advertisedExamples: 0,
});

export const proveConsistency = defineOperation({
  name: 'palimpsest_prove_consistency',
  title: 'Prove two checkpoints agree',
  description:
    'The consistency proof (RFC 9162) that the log at one signed checkpoint is a prefix of the log at a later one: nothing it held was changed, removed or reordered.',
  readOnly: true,
  params: closed({
    first_size: { type: ['integer', 'null'], minimum: 1, description: 'The earlier checkpoint\'s size (default: the checkpoint before the later one).' },
    second_size: checkpointSize,
  }),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found'],
  examples: [],
  advertisedExamples: 0,
});

export const PROOF_OPERATIONS = [proveEvent, proveConsistency] as const;
