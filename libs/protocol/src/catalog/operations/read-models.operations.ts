import type { JsonSchema } from '../operation-spec';
import { defineOperation } from '../operation-spec';
import { statusResult } from '../fragments';

/**
 * Reads of the asynchronous read models (the projector follows the log and writes them). Each answer
 * says how far its model has come; min_position asks it to wait, bounded, for a write it returned.
 */

/** The longest a read waits for its read model to reach min_position, in milliseconds. */
export const MIN_POSITION_MAX_WAIT_MS = 5_000;

const freshness: Record<string, JsonSchema> = {
  min_position: {
    type: ['integer', 'null'],
    minimum: 1,
    description: 'A write\'s log_sequence: wait until the read model has it (see projection in the answer).',
  },
  max_wait_ms: {
    type: ['integer', 'null'],
    minimum: 0,
    maximum: MIN_POSITION_MAX_WAIT_MS,
    description: 'Bound on that wait (default and cap 5,000).',
  },
};

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object', additionalProperties: false, required, properties,
});

export const searchTargets = defineOperation({
  name: 'palimpsest_search_targets',
  title: 'Search targets',
  description:
    'Full-text search over every target\'s current text, filename, workspace path and accepted intents, best first, with a short snippet ([[match]]). Asynchronous index: see projection.',
  readOnly: true,
  params: closed({
    query: { type: 'string', minLength: 1, maxLength: 256, description: 'Words; "quoted phrase", or, -word.' },
    limit: { type: ['integer', 'null'], minimum: 1, maximum: 50, description: 'Page size (default 10, max 50).' },
    offset: { type: ['integer', 'null'], minimum: 0, maximum: 10_000, description: 'Pass next_offset for the next page.' },
    ...freshness,
  }, ['query']),
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument']),
  errors: [],
  examples: [{ title: 'Targets mentioning alpha', params: { query: 'alpha', limit: 5 } }],
  advertisedExamples: 0,
});

export const getTargetActivity = defineOperation({
  name: 'palimpsest_get_target_activity',
  title: 'Target activity',
  description:
    'Attempts in a time window, of one target or all: by status, failure reason and source, acceptance rate, retries per acceptance, and a series. Asynchronous: see projection.',
  readOnly: true,
  params: closed({
    target_file_id: { type: ['string', 'null'], description: 'Target UUID (default: every target).' },
    window_minutes: { type: ['integer', 'null'], minimum: 1, maximum: 43_200, description: 'Window length (default 60, max 30 days).' },
    until: { type: ['string', 'null'], description: 'Window end, ISO 8601 (default now).' },
    ...freshness,
  }),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'invalid_target_file_id', 'invalid_until'],
  examples: [{ title: 'The last hour, every target', params: { window_minutes: 60 } }],
  advertisedExamples: 0,
});

export const READ_MODEL_OPERATIONS = [searchTargets, getTargetActivity] as const;
