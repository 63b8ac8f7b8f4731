import { EXAMPLE_TARGET_ID } from '../fragments';
import { defineOperation } from '../operation-spec';
import {
  CANDIDATE_ERRORS,
  base,
  candidateId,
  candidateResult,
  checkNames,
  expectedCandidateVersion,
  intent,
  operations,
  requestId,
} from './candidates.schemas';

/**
 * Candidates (seed 000's lifecycle): propose a change over one or more targets, inspect it, run
 * checks on it, then apply it to every target at once — or discard it. Every failure answers with
 * status "error" and seed 000's error object (code, reason, retryable, next_actions, details).
 */

const object = (required: string[], properties: Record<string, unknown>) => ({ type: 'object', additionalProperties: false, required, properties });

export const changePropose = defineOperation({
  name: 'palimpsest_change_propose',
  title: 'Propose a candidate change',
  description:
    'Stage operations on a private candidate over one or more targets; none changes before palimpsest_change_apply. candidate + expected_candidate_version extend an open one.',
  readOnly: false,
  params: object(['request_id', 'base', 'operations'], {
    request_id: requestId,
    base,
    operations,
    intent,
    candidate: { ...candidateId, description: 'Extend this open candidate.' },
    expected_candidate_version: { ...expectedCandidateVersion, description: 'With candidate: the version you extend.' },
    checks: checkNames('Checks to run on the new version (utf8, json, yaml, or an operator\'s).'),
  }),
  admission: 'schema',
  result: candidateResult({ replayed: { type: 'boolean' }, candidate: { type: 'object' }, operations: { type: 'array' }, files: { type: 'array' } }),
  errors: CANDIDATE_ERRORS,
  examples: [
    {
      title: 'Propose renaming the second alpha',
      params: {
        request_id: 'example-propose-1',
        base: [{ target_file_id: EXAMPLE_TARGET_ID, version: 0 }],
        operations: [{ kind: 'edit', target_file_id: EXAMPLE_TARGET_ID, match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
        checks: ['utf8'],
      },
    },
  ],
});

export const editPlan = defineOperation({
  name: 'palimpsest_edit_plan',
  title: 'Plan a change (dry run)',
  description:
    'Dry run of palimpsest_change_propose, same rules: the outcome of each operation, the targets it would change, the checks an apply would need. Stores nothing.',
  readOnly: true,
  params: object(['base', 'operations'], { base, operations, intent }),
  admission: 'schema',
  result: candidateResult({ outcome: { type: 'string' }, operations: { type: 'array' }, files: { type: 'array' }, required_checks: { type: 'array' } }),
  errors: CANDIDATE_ERRORS,
  // The same operations as palimpsest_change_propose, whose example tools/list shows.
  advertisedExamples: 0,
  examples: [
    {
      title: 'Insert a title, then rewrite it through its handle',
      params: {
        base: [{ target_file_id: EXAMPLE_TARGET_ID, version: 0 }],
        operations: [
          { kind: 'span', target_file_id: EXAMPLE_TARGET_ID, start: 0, end: 0, expected_text: '', replace: 'Title\n', handle: 'title' },
          { kind: 'span', target_file_id: EXAMPLE_TARGET_ID, range: { handle: 'title' }, replace: '# Title\n' },
        ],
      },
    },
  ],
});

export const changeInspect = defineOperation({
  name: 'palimpsest_change_inspect',
  title: 'Inspect a candidate',
  description:
    'What a candidate changes, per target: changed spans with their text before and after and the operations behind each, a unified diff with bounded hunks, full content on request, and its checks.',
  readOnly: true,
  params: object(['candidate'], {
    candidate: candidateId,
    include: {
      type: 'array',
      items: { enum: ['semantic_diff', 'source_diff', 'content', 'checks'] },
      description: 'Parts to return (default semantic_diff, source_diff and checks).',
    },
    targets: { type: 'array', items: { type: 'string' }, maxItems: 50, description: 'Only these targets (default: all).' },
    context_lines: { type: 'integer', minimum: 0, maximum: 20, description: 'Unchanged lines around each hunk (default 3).' },
  }),
  admission: 'schema',
  result: candidateResult({ candidate: { type: 'object' }, files: { type: 'array' }, targets: { type: 'array' } }),
  errors: CANDIDATE_ERRORS,
  examples: [],
});

export const checkRun = defineOperation({
  name: 'palimpsest_check_run',
  title: 'Run checks on a candidate',
  description:
    'Run and record checks on the candidate\'s current version: utf8, json and yaml by content type, and the operator\'s declared commands (in a temporary directory, timed, output bounded). A failed check is ok: false, never an error.',
  readOnly: false,
  params: object(['candidate', 'checks'], {
    candidate: candidateId,
    checks: { ...checkNames('Checks to run.'), minItems: 1 },
  }),
  admission: 'schema',
  result: candidateResult({ ok: { type: 'boolean' }, checks: { type: 'array' } }),
  errors: CANDIDATE_ERRORS,
  examples: [],
});

export const changeApply = defineOperation({
  name: 'palimpsest_change_apply',
  title: 'Apply a candidate',
  description:
    'Write the candidate to every target it changes, atomically, with a receipt; if a written target moved, nothing is written. Bound files are published through one journal (a file edited on disk: precondition_failed external_write); the same request_id reconciles and applies once. Under an approve policy it waits for an operator (APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers; the same request_id resumes).',
  readOnly: false,
  params: object(['candidate', 'expected_candidate_version', 'request_id'], {
    candidate: candidateId,
    expected_candidate_version: expectedCandidateVersion,
    request_id: requestId,
    require_checks: checkNames('Checks that must have passed on this exact candidate version.'),
  }),
  admission: 'schema',
  result: candidateResult({ replayed: { type: 'boolean' }, receipt: { type: 'object' }, base_changes: { type: 'array' } }),
  errors: CANDIDATE_ERRORS,
  examples: [],
});

export const changeDiscard = defineOperation({
  name: 'palimpsest_change_discard',
  title: 'Discard a candidate',
  description: 'Close an open candidate. It never undoes an applied change: to undo, propose a compensating change.',
  readOnly: false,
  params: object(['candidate'], {
    candidate: candidateId,
    expected_candidate_version: { ...expectedCandidateVersion, description: 'Optional: the version you expect.' },
  }),
  admission: 'schema',
  result: candidateResult({ candidate: { type: 'object' }, released: { type: 'boolean' } }),
  errors: CANDIDATE_ERRORS,
  examples: [],
});

export const CANDIDATE_OPERATIONS = [changePropose, editPlan, changeInspect, checkRun, changeApply, changeDiscard] as const;

/** Operations whose every failure is seed 000's error envelope (admission refusals included). */
export const ENVELOPE_OPERATION_NAMES: ReadonlySet<string> = new Set(CANDIDATE_OPERATIONS.map((o) => o.name));
