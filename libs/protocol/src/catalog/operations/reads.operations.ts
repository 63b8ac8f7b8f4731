import { EXAMPLE_TARGET_ID, statusResult, targetParams } from '../fragments';
import { defineOperation } from '../operation-spec';
import { AS_OF_ERRORS, asOfParam } from './history.operations';

const readResult = statusResult(['ok', 'not_found', 'invalid_argument']);

export const readTarget = defineOperation({
  name: 'palimpsest_read_target',
  title: 'Read target slice',
  description:
    'Authoritative bounded read by code-point offset (default 4,000, max 8,000 code points) with version, hash and next_start continuation.',
  readOnly: true,
  params: targetParams({
    start: { type: 'integer', minimum: 0, description: 'Start offset in code points (default 0).' },
    length: {
      type: ['integer', 'null'],
      minimum: 1,
      description: 'Code points to read (default 4,000, clamped to 8,000).',
    },
    as_of: asOfParam,
  }),
  admission: 'schema',
  result: readResult,
  errors: ['not_found', 'start_out_of_range', 'invalid_length', ...AS_OF_ERRORS],
  examples: [{ title: 'Read the first 4,000 code points', params: { target_file_id: EXAMPLE_TARGET_ID, start: 0, length: 4000 } }],
  advertisedExamples: 0,
});

export const readLines = defineOperation({
  name: 'palimpsest_read_lines',
  title: 'Read lines',
  description:
    'Bounded inclusive range of one-based LF lines. Pages by offset (relative to range_start, pass next_offset back) or next_start (absolute, for palimpsest_read_target).',
  readOnly: true,
  params: targetParams({
    start_line: { type: 'integer', minimum: 1, description: 'First line, one-based (default 1).' },
    end_line: { type: ['integer', 'null'], minimum: 1, description: 'Last line, inclusive (default: last line).' },
    offset: { type: 'integer', minimum: 0, description: 'Code-point offset within the range (default 0).' },
    max_chars: {
      type: ['integer', 'null'],
      minimum: 1,
      description: 'Page size in code points (default 4,000, capped at 8,000).',
    },
    include_line_starts: {
      type: 'boolean',
      description: 'Add line_starts: absolute start offset of each selected line that begins in the page.',
    },
    as_of: asOfParam,
  }),
  admission: 'schema',
  result: readResult,
  errors: ['not_found', 'line_out_of_range', 'invalid_line_range', 'offset_out_of_range', 'invalid_max_chars', ...AS_OF_ERRORS],
  examples: [{ title: 'Read line 1 with its start offset', params: { target_file_id: EXAMPLE_TARGET_ID, start_line: 1, end_line: 1, include_line_starts: true } }],
  advertisedExamples: 0,
});

export const findOccurrences = defineOperation({
  name: 'palimpsest_find_occurrences',
  title: 'Find occurrences',
  description:
    'Exact occurrences of text (overlapping ones counted) in the current target, with bounded context and pagination. Indexes are valid for the first edit of a transaction.',
  readOnly: true,
  params: targetParams({
    text: { type: 'string', description: 'Exact text to locate (line endings canonicalized to LF).' },
    context_chars: {
      type: 'integer',
      minimum: 0,
      description: 'Context code points before/after each match (default 40, clamped to 400).',
    },
    start_occurrence: { type: 'integer', minimum: 1, description: '1-based occurrence to start from (default 1).' },
    max_results: { type: 'integer', minimum: 1, description: 'Occurrences per page (default and cap 200).' },
    as_of: asOfParam,
  }, ['text']),
  admission: 'schema',
  result: readResult,
  errors: ['not_found', 'empty_text', 'invalid_text_encoding', ...AS_OF_ERRORS],
  examples: [{ title: 'Locate every alpha', params: { target_file_id: EXAMPLE_TARGET_ID, text: 'alpha', context_chars: 10 } }],
  advertisedExamples: 0,
});
