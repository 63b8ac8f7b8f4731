import { REPLACEMENT_MAX_CODE_POINTS, REPLACEMENT_MAX_UTF8_BYTES } from '@palimpsest/core/transaction/replacement-admission';
import { FAILURE_REASONS, PROTOCOL, RUNTIME } from '@palimpsest/core/transaction/transaction.types';
import { EXAMPLE_HASH, EXAMPLE_TARGET_ID, matchEdit, matchOperation, spanOperation, statusResult, submissionCommon } from '../fragments';
import { defineOperation } from '../operation-spec';

const GUARD_RULE = 'Needs a version or hash guard, each checked under the row lock.';

/**
 * An accepted change to a target bound to a workspace file (publish on_accept) is published to the file
 * before the answer: these are the ways that publication can refuse (nothing recorded) or end partial.
 */
export const SUBMISSION_PUBLICATION_CODES = [
  'external_disk_drift',
  'workspace_busy',
  'recovery_required',
  'workspace_io_error',
  'workspace_not_configured',
  'workspace_root_mismatch',
  'workspace_durability_uncertain',
  'workspace_checkpoint_uncertain',
];
export const SUBMISSION_STATUSES = ['accepted', 'rejected', 'partial', 'invalid_argument', 'not_found'];
const submissionResult = statusResult(SUBMISSION_STATUSES);
const submissionErrors = [...FAILURE_REASONS, 'not_found', 'invalid_argument', ...SUBMISSION_PUBLICATION_CODES];
/** Everything else is decided (and audited) by the core for a known target. */
const edgeFields = ['target_file_id', 'include_correlation_id'];
const rebasingEdgeFields = [...edgeFields, 'rebase'];
const rebase = {
  type: ['boolean', 'null'],
  description: 'true: a stale expected_target_version is rebased through the changes since when none touched this change\'s ranges (else refused as stale, naming them). Default: the policy\'s (off).',
};

export const submitEdits = defineOperation({
  name: 'palimpsest_submit_edits',
  title: 'Submit typed edits (patchdiff-tx/1)',
  description: `Apply ordered exact-match edits atomically, each on the buffer the earlier ones left. ${GUARD_RULE}`,
  readOnly: false,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['target_file_id', 'intent', 'edits'],
    properties: {
      ...submissionCommon,
      rebase,
      edits: { type: 'array', minItems: 1, items: matchEdit, description: 'Ordered exact-match edits (1 or more).' },
    },
  },
  admission: 'audited',
  edgeFields: rebasingEdgeFields,
  result: submissionResult,
  errors: submissionErrors,
  examples: [
    {
      title: 'Replace the second alpha, guarded by version',
      params: {
        target_file_id: EXAMPLE_TARGET_ID,
        intent: 'Rename the second alpha',
        expected_target_version: 0,
        edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
      },
    },
    {
      title: 'Select by anchor, guarded by hash, with a request key',
      params: {
        target_file_id: EXAMPLE_TARGET_ID,
        intent: 'Rename the alpha after beta',
        expected_current_hash: EXAMPLE_HASH,
        client_request_id: 'req-001',
        edits: [{ match: 'alpha', replace: 'gamma', anchor_before: 'beta', rationale: 'clearer name' }],
      },
    },
  ],
});

export const submitOperations = defineOperation({
  name: 'palimpsest_submit_operations',
  title: 'Submit match/span operations (patchdiff-tx/2)',
  description: `Apply ordered match and code-point span operations atomically; order spans from one read by descending start. ${GUARD_RULE}`,
  readOnly: false,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['target_file_id', 'intent', 'operations'],
    properties: {
      ...submissionCommon,
      rebase,
      operations: {
        type: 'array',
        minItems: 1,
        items: { oneOf: [matchOperation, spanOperation] },
        description: 'Ordered operations (match or span), each on the buffer the earlier ones left.',
      },
    },
  },
  capabilities: {
    protocol: PROTOCOL.tx2,
    runtime: RUNTIME.spanOps,
    operations: ['match', 'span'],
    coordinates: 'unicode_code_points',
    insertion: 'start == end with expected_text ""',
    span_context: { fields: ['expected_before', 'expected_after'], runtime: RUNTIME.spanContext },
  },
  admission: 'audited',
  edgeFields: rebasingEdgeFields,
  result: submissionResult,
  errors: submissionErrors,
  examples: [
    {
      title: 'Insert at a point verified by adjacent context (runtime 0.5.0)',
      params: {
        target_file_id: EXAMPLE_TARGET_ID,
        intent: 'Add a comma',
        expected_target_version: 0,
        operations: [{ op: 'span', start: 5, end: 5, expected_text: '', replace: ',', expected_before: 'alpha', expected_after: ' beta' }],
      },
    },
  ],
});

export const submitReplacement = defineOperation({
  name: 'palimpsest_submit_replacement',
  title: 'Submit whole replacement (patchdiff-tx/3)',
  description: `Replace the whole text (runtime 0.4.0), at most 1,000,000 code points and 1,048,576 UTF-8 bytes. ${GUARD_RULE}`,
  readOnly: false,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['target_file_id', 'intent', 'replacement'],
    properties: {
      ...submissionCommon,
      replacement: { type: 'string', description: 'The complete new text ("" empties the target).' },
    },
  },
  capabilities: {
    protocol: PROTOCOL.tx3,
    runtime: RUNTIME.replacement,
    operations: ['replace_all'],
    limits: { max_code_points: REPLACEMENT_MAX_CODE_POINTS, max_utf8_bytes: REPLACEMENT_MAX_UTF8_BYTES },
  },
  admission: 'audited',
  edgeFields,
  result: submissionResult,
  errors: [...submissionErrors, 'replacement_too_large'],
  advertisedExamples: 0,
  examples: [
    {
      title: 'Replace the whole text',
      params: { target_file_id: EXAMPLE_TARGET_ID, intent: 'Rewrite', expected_target_version: 0, replacement: 'alpha beta gamma\n' },
    },
  ],
});

/** The three submission operations (tx/1, tx/2, tx/3): one list for every transport that treats them alike. */
export const SUBMISSION_OPERATIONS = [submitEdits, submitOperations, submitReplacement] as const;
export type SubmissionOperation = (typeof SUBMISSION_OPERATIONS)[number]['name'];
const SUBMISSION_NAMES: ReadonlySet<string> = new Set(SUBMISSION_OPERATIONS.map((op) => op.name));
export const isSubmission = (name: string): name is SubmissionOperation => SUBMISSION_NAMES.has(name);
