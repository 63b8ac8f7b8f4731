import { EXAMPLE_TARGET_ID, readYourWrites, statusResult, targetParams } from '../fragments';
import { defineOperation, type JsonSchema } from '../operation-spec';

/**
 * History reads: any version of a target's text (as_of on the reads), a diff between two versions, the
 * versions of a workspace file, and every bound file as of one point of the log. All are folds of the
 * effects the log records; none runs an edit engine.
 */

/**
 * A point in a target's history: exactly one of version, position (the last version at or before a global
 * log position) or time (the last version written at or before an RFC 3339 time). It is advertised on every
 * read within tools/list's byte budget, so its keys are named in the description and checked by the
 * handler (invalid_as_of: core/history/text-as-of.ts), not spelled out as nested properties.
 */
export const asOfParam: JsonSchema = {
  type: 'object',
  description: 'Past point: {version}, {position} or {time: RFC 3339}.',
};

/** A point in the whole log (versions are per file). */
export const logPointParam: JsonSchema = { type: 'object', description: '{position} or {time: RFC 3339}.' };

export const AS_OF_ERRORS = ['invalid_as_of', 'as_of_out_of_range'];

export const diffVersions = defineOperation({
  name: 'palimpsest_diff_versions',
  title: 'Diff versions',
  description:
    'Unified diff between two points (to: now by default): hunks with lines and code-point spans, and the attempts between. Paged.',
  readOnly: true,
  params: targetParams({
    from: asOfParam,
    to: asOfParam,
    start_hunk: { type: 'integer', minimum: 0, description: 'A page\'s next_hunk.' },
    max_chars: { type: 'integer', minimum: 1, description: 'Hunk code points a page (default 20,000).' },
    attempts_limit: { type: 'integer', minimum: 0, maximum: 200, description: 'Attempts a page (default 50).' },
    after_sequence: { type: 'integer', minimum: 0, description: 'A page\'s attempts_next.' },
  }, ['from']),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'invalid_target_file_id', ...AS_OF_ERRORS],
  examples: [{ title: 'What changed since version 0', params: { target_file_id: EXAMPLE_TARGET_ID, from: { version: 0 } } }],
  advertisedExamples: 0,
});

export const fileHistory = defineOperation({
  name: 'palimpsest_file_history',
  title: 'File history',
  description:
    'A workspace file\'s versions, newest first: attempt, source, time, size (read one: read_file as_of). Paged.',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path under the root.' },
      before_version: { type: ['integer', 'null'], minimum: 0, description: 'A page\'s next_before_version.' },
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 200, description: 'Page size (default 50).' },
      min_position: readYourWrites,
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['workspace_not_configured', 'target_not_bound_to_workspace', 'PATH_ESCAPE', 'PATH_INVALID', 'PATH_RESERVED', 'PATH_TOO_LONG'],
  examples: [],
});

export const workspaceAsOf = defineOperation({
  name: 'palimpsest_workspace_as_of',
  title: 'Workspace as of',
  description: 'Every bound file\'s version at one log position or time, in path order. Paged.',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['as_of'],
    properties: {
      as_of: logPointParam,
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 1000, description: 'Page size (default 100).' },
      cursor: { type: ['string', 'null'], description: 'A page\'s next_cursor.' },
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument']),
  errors: ['workspace_not_configured', 'invalid_as_of', 'invalid_cursor'],
  examples: [],
});

export const HISTORY_OPERATIONS = [diffVersions, fileHistory, workspaceAsOf] as const;
