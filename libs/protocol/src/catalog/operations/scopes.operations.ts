import { SYMBOL_KINDS } from '@palimpsest/core/structure/structure.port';
import { FAILURE_REASONS } from '@palimpsest/core/transaction/transaction.types';
import { EXAMPLE_TARGET_ID, statusResult, submissionCommon, targetParams } from '../fragments';
import { defineOperation } from '../operation-spec';
import { EXAMPLE_OBSERVATION_ID, OBSERVED_EXAMPLES } from '../observed-examples';
import { SUBMISSION_PUBLICATION_CODES, SUBMISSION_STATUSES } from './submissions.operations';

const kind = { enum: [...SYMBOL_KINDS, null], description: 'Symbol kind filter.' };
const selector = (description: string) => ({ type: ['string', 'null'], minLength: 1, description });
const startLine = { type: ['integer', 'null'], minimum: 1, description: "Symbol's 1-based start line." };

/** Codes of palimpsest_observe_scope beyond admission (seed: "Structural Observation and Scoped Submission"). */
export const OBSERVE_SCOPE_CODES = [
  'SCOPE_NOT_FOUND',
  'AMBIGUOUS_SCOPE_SELECTION',
  'DUPLICATE_SCOPE_SELECTION',
  'EMPTY_SCOPE_SELECTION',
  'OVERLAPPING_SCOPE_SELECTION',
  'BUNDLE_RESPONSE_TOO_LARGE',
  'INVALID_OBSERVATION_ID',
  'UNKNOWN_OBSERVATION_ID',
  'OBSERVATION_TARGET_MISMATCH',
  'OBSERVATION_CYCLE_MISMATCH',
  'STALE_OBSERVATION_VERSION',
  'STALE_OBSERVATION_HASH',
  'UNSUPPORTED_LANGUAGE',
  'blank_selector',
  'conflicting_selectors',
  'offset_out_of_range',
  'target_not_found',
  'operation_not_permitted',
];

export const observeScope = defineOperation({
  name: 'palimpsest_observe_scope',
  title: 'Observe a structural scope',
  description:
    'Structural scopes (code symbols; Markdown sections, code blocks, table rows; YAML/JSON keys). No symbol_name: discovery (200 candidates at most, nothing recorded). symbol_name: one match is observed (observation_id, first page); none is SCOPE_NOT_FOUND, several AMBIGUOUS_SCOPE_SELECTION. observation_id pages a scope; selections observe 1-32 disjoint scopes. A save or an edit makes an observation stale.',
  readOnly: false,
  readOnlyPart: 'discovery and paging (exact and bundle selections record an observation)',
  params: targetParams({
    query: selector('Discovery filter: substring of name or parent.name.'),
    symbol_name: selector('Exact selection: name or dotted path.'),
    kind,
    start_line: startLine,
    observation_id: { type: ['string', 'null'], description: 'Page an observed scope (its UUID).' },
    offset: { type: 'integer', minimum: 0, description: 'Code points into the scope (default 0).' },
    max_chars: { type: ['integer', 'null'], minimum: 1, description: 'Page size (default 4,000, cap 8,000).' },
    include_line_starts: { type: 'boolean', description: 'Add line_starts (line, absolute start) of the page.' },
    selections: {
      type: ['array', 'null'],
      minItems: 1,
      maxItems: 32,
      description: 'Bundle: 1-32 exact selections.',
      items: {
        type: 'object',
        additionalProperties: false,
        required: ['symbol_name'],
        properties: { symbol_name: { type: 'string', minLength: 1, description: 'Name or dotted path.' }, kind },
      },
    },
  }),
  admission: 'schema',
  result: statusResult(['candidates', 'observed', 'observed_batch', 'scope_page', 'not_found', 'ambiguous', 'rejected', 'unsupported']),
  errors: OBSERVE_SCOPE_CODES,
  // EXAMPLE_TEXT has no structure to observe: these run on EXAMPLE_DOCUMENT. The seed has tools/list show
  // discovery, single and bundle selection and paging; the first is also the OpenAPI example.
  examples: [
    { title: 'Select one section exactly (a recorded observation)', params: { target_file_id: EXAMPLE_TARGET_ID, symbol_name: 'Guide.Install', kind: 'section' }, setup: 'document' },
    { title: 'Discover sections (nothing recorded)', params: { target_file_id: EXAMPLE_TARGET_ID, query: 'install', kind: 'section' }, setup: 'document' },
    { title: 'Observe two sections from one snapshot', params: { target_file_id: EXAMPLE_TARGET_ID, selections: [{ symbol_name: 'Guide.Install' }, { symbol_name: 'Guide.Usage' }] }, setup: 'document' },
    { title: 'The next page of an observed scope', params: { target_file_id: EXAMPLE_TARGET_ID, observation_id: EXAMPLE_OBSERVATION_ID, offset: 10 }, setup: 'observed_document' },
  ],
  advertisedExamples: 4,
});

/** Codes of an observed submission's recorded rejections (diagnostic.code): the seed's, then the batch form's own. */
export const SUBMIT_OBSERVED_CODES = [
  'OBSERVATION_REQUIRED',
  'INVALID_OBSERVATION_ID',
  'UNKNOWN_OBSERVATION_ID',
  'OBSERVATION_TARGET_MISMATCH',
  'OBSERVATION_CYCLE_MISMATCH',
  'OBSERVATION_ALREADY_CONSUMED',
  'STALE_OBSERVATION_VERSION',
  'STALE_OBSERVATION_HASH',
  'OPERATION_OUTSIDE_OBSERVED_SCOPE',
  'OBSERVED_INSERTION_GUARDS_REQUIRED',
  'OBSERVATION_BUNDLE_MISMATCH',
  'DUPLICATE_GROUP_OBSERVATION',
  'missing_client_request_id',
  'conflicting_arguments',
  'invalid_groups',
  'too_many_operations',
  'invalid_node_version',
  'node_version_mismatch',
];

/** Single form (observation_id, operations) or batch form (observation_bundle_id, groups): never both. */
export const submitObservedOperations = defineOperation({
  name: 'palimpsest_submit_observed_operations',
  title: 'Submit operations bound to an observed scope',
  description:
    'palimpsest_submit_operations bound to an observation_id, both guards required: changes stay inside the scope, insertions strictly inside (expected_before/after). Refusals are recorded (STALE_OBSERVATION_VERSION, OPERATION_OUTSIDE_OBSERVED_SCOPE, ...). Acceptance consumes the observation. Batch: observation_bundle_id, groups, client_request_id; one attempt.',
  readOnly: false,
  params: {
    type: 'object',
    additionalProperties: false,
    // The form's own fields and both guards are required too, but by the decider: their absence is a recorded rejection.
    required: ['target_file_id', 'intent'],
    properties: {
      ...submissionCommon,
      observation_id: { type: 'string', description: 'Required: the observed scope (UUID).' },
      expected_node_version: { type: 'string', description: 'Single form: its node\'s version (palimpsest_node_get); refused if changed.' },
      // The shapes are palimpsest_submit_operations' (the decider checks them); not repeated, for the tools/list budget.
      operations: { type: 'array', minItems: 1, items: { type: 'object' }, description: 'Ordered match/span operations as in palimpsest_submit_operations.' },
      observation_bundle_id: { type: 'string', description: 'Batch: the bundle (UUID).' },
      groups: {
        type: 'array',
        minItems: 1,
        maxItems: 32,
        description: 'Batch: 1-32 groups, 128 operations in all; offsets and matches scope-local.',
        items: {
          type: 'object',
          additionalProperties: false,
          required: ['observation_id', 'operations'],
          properties: {
            observation_id: { type: 'string', description: 'A bundle scope.' },
            operations: { type: 'array', minItems: 1, items: { type: 'object' }, description: 'Its operations.' },
          },
        },
      },
    },
  },
  admission: 'audited',
  edgeFields: ['target_file_id', 'include_correlation_id'],
  result: statusResult(SUBMISSION_STATUSES),
  errors: [...FAILURE_REASONS, 'not_found', 'invalid_argument', ...SUBMIT_OBSERVED_CODES, ...SUBMISSION_PUBLICATION_CODES],
  examples: OBSERVED_EXAMPLES,
  advertisedExamples: 2,
});
