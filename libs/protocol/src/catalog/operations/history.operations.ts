import { EXAMPLE_TARGET_ID, statusResult, targetParams } from '../fragments';
import { defineOperation, type JsonSchema } from '../operation-spec';

/**
 * History reads: any version of a target's text (as_of on the reads), a diff between two versions, the
 * versions of a workspace file, and every bound file as of one point of the log. All are folds of the
 * effects the log records; none runs an edit engine.
 */

const point = (name: string, schema: JsonSchema, description: string): JsonSchema => ({
  type: 'object',
  additionalProperties: false,
  required: [name],
  properties: { [name]: { ...schema, description } },
});

const versionPoint = point('version', { type: 'integer', minimum: 0 }, 'A version of the target (0: as created).');
const positionPoint = point('position', { type: 'integer', minimum: 0 }, 'A global log position (log_sequence): the last version at or before it.');
const timePoint = point('time', { type: 'string', pattern: '^\\d{4}-\\d{2}-\\d{2}[Tt ]\\d{2}:\\d{2}:\\d{2}(\\.\\d+)?([Zz]|[+-]\\d{2}:\\d{2})$' }, 'An RFC 3339 time: the last version written at or before it.');

/** A point in a target's history; the answer carries as_of {version, after_hash, written_at, log_sequence, attempt_id}. */
export const asOfParam: JsonSchema = {
  description: 'Read the text as it was: { "version": n }, { "position": p } or { "time": RFC 3339 }. Omit for the current version.',
  oneOf: [versionPoint, positionPoint, timePoint],
};

/** A point in the whole log (no version: versions are per file). */
export const logPointParam: JsonSchema = {
  description: '{ "position": p } (global log position) or { "time": RFC 3339 }.',
  oneOf: [positionPoint, timePoint],
};

export const AS_OF_ERRORS = ['invalid_as_of', 'as_of_out_of_range'];

export const diffVersions = defineOperation({
  name: 'palimpsest_diff_versions',
  title: 'Diff two versions',
  description:
    'Unified diff of a target between two points of its history (each a version, position or time; to defaults to now), hunks with one-based lines and code-point spans in both texts, and the attempts recorded in between. Bounded: continue with start_hunk = next_hunk and after_sequence = attempts_next.',
  readOnly: true,
  params: targetParams({
    from: asOfParam,
    to: { ...asOfParam, description: 'The later point (default: the current version).' },
    start_hunk: { type: 'integer', minimum: 0, description: 'First hunk to answer, zero-based (default 0): the previous page\'s next_hunk.' },
    max_chars: { type: 'integer', minimum: 1, description: 'Code points of hunk lines per page (default 20,000, at most 100,000; at least one hunk).' },
    attempts_limit: { type: 'integer', minimum: 0, maximum: 200, description: 'Attempts in between per page (default 50, at most 200).' },
    after_sequence: { type: 'integer', minimum: 0, description: 'Continue the attempts after this log_sequence: the previous page\'s attempts_next.' },
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
    'The versions of a workspace file newest first: version, attempt, source (agent, external_disk, undo), time, size in code points and hash. Read one with read_file as_of {version}, compare with palimpsest_diff_versions. Paged: pass next_before_version as before_version.',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['path'],
    properties: {
      path: { type: 'string', minLength: 1, description: 'Path relative to the project root.' },
      before_version: { type: ['integer', 'null'], minimum: 0, description: 'Only versions below this one: the previous page\'s next_before_version.' },
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 200, description: 'Page size: default 50, at most 200.' },
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['workspace_not_configured', 'target_not_bound_to_workspace', 'PATH_ESCAPE', 'PATH_INVALID', 'PATH_RESERVED', 'PATH_TOO_LONG'],
  examples: [],
});

export const workspaceAsOf = defineOperation({
  name: 'palimpsest_workspace_as_of',
  title: 'Workspace as of a point',
  description:
    'Every bound file\'s version at one point of the log (a position or a time), all read from the same state of the log, in path order, paged (pass next_cursor as cursor).',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['as_of'],
    properties: {
      as_of: logPointParam,
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 1000, description: 'Page size: default 100, at most 1000.' },
      cursor: { type: ['string', 'null'], description: 'Continue after the previous page: pass its next_cursor.' },
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument']),
  errors: ['workspace_not_configured', 'invalid_as_of'],
  examples: [],
});

export const HISTORY_OPERATIONS = [diffVersions, fileHistory, workspaceAsOf] as const;
