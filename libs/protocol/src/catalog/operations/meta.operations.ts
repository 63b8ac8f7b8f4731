import { EXAMPLE_TARGET_ID, guardHash, guardVersion, matchEdit, matchOperation, spanOperation, statusResult, targetFileId } from '../fragments';
import { defineOperation } from '../operation-spec';

export const capabilities = defineOperation({
  name: 'palimpsest_capabilities',
  title: 'Capabilities',
  description:
    'The session manifest: callable operations and their error codes, limits, workspace root.',
  readOnly: true,
  params: { type: 'object', additionalProperties: false, properties: { detail: { type: 'boolean', description: 'Every operation, with status and codes.' } } },
  admission: 'schema',
  result: statusResult(['ok']),
  errors: [],
  examples: [],
});

export const preview = defineOperation({
  name: 'palimpsest_preview',
  title: 'Preview a proposal',
  description:
    'Evaluate a proposal as submission would, on one read: no lock, no attempt row, no commit. Advisory: submission locks and checks again. A version or hash guard is required.',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['target_file_id', 'format'],
    properties: {
      target_file_id: targetFileId,
      format: {
        enum: ['patchdiff-tx/1', 'patchdiff-tx/2', 'patchdiff-tx/3'],
        description: 'tx/1 takes intent+edits, tx/2 intent+operations, tx/3 intent+replacement.',
      },
      expected_target_version: guardVersion,
      expected_current_hash: guardHash,
      intent: { type: 'string', description: 'Transaction intent, as for submission.' },
      edits: { type: 'array', minItems: 1, items: matchEdit, description: 'tx/1 edits (format patchdiff-tx/1 only).' },
      operations: {
        type: 'array',
        minItems: 1,
        items: { oneOf: [matchOperation, spanOperation] },
        description: 'tx/2 operations (format patchdiff-tx/2 only).',
      },
      replacement: { type: 'string', description: 'tx/3 whole replacement (format patchdiff-tx/3 only).' },
    },
  },
  admission: 'audited',
  edgeFields: ['target_file_id', 'format'],
  result: statusResult(['accepted', 'rejected', 'invalid_argument', 'not_found']),
  errors: ['not_found', 'invalid_argument', 'replacement_too_large', 'unsupported_format'],
  // The same shapes as the three submission tools, whose examples tools/list shows.
  advertisedExamples: 0,
  examples: [
    {
      title: 'Preview a typed edit',
      params: {
        target_file_id: EXAMPLE_TARGET_ID,
        format: 'patchdiff-tx/1',
        expected_target_version: 0,
        intent: 'Rename',
        edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 1 }],
      },
    },
  ],
});
