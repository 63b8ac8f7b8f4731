import type { OperationName } from './catalog';
import type { JsonSchema } from './operation-spec';
import { anyObject, array, bool, currentHash, int, logSequence, nullable, object, sha256, str, targetId, version } from './answer-schema-parts';
import { acceptedAnswer, observedAcceptedAnswer, previewAnswer } from './submission-answers';
import { WORKSPACE_ANSWERS } from './workspace-answers';
import { READ_MODEL_ANSWERS } from './read-model-answers';
import { GROUP_ANSWERS } from './group-answers';
import { PROJECT_ANSWERS } from './operations/projects.operations';

/**
 * The catalog's word on what each operation's success carries, field by field, beside its result
 * schema (which names the statuses, and is every MCP tool's outputSchema). The OpenAPI document
 * combines the two as `<op>.answer`. Objects stay open: a field added to an answer is not a breaking
 * change. openapi-components.unit.spec.ts validates the real example answers against these.
 */

const lineEndings = object({
  style: { enum: ['lf', 'crlf', 'cr', 'mixed', 'none'], description: 'The uploaded text\'s line-ending style.' },
  lf: int(),
  crlf: int(),
  cr: int(),
  normalized: bool('True when the upload was converted to LF.'),
  source_code_points: int(),
  source_utf8_bytes: int(),
  source_sha256: sha256('SHA-256 of the text as uploaded.'),
});

const workspaceBinding: JsonSchema = {
  ...object({
    path: str('Relative POSIX path of the file under the workspace root.'),
    source_sha256: sha256('SHA-256 of the file bytes imported.'),
    publish: { enum: ['on_accept', 'on_save'], description: 'When an accepted direct submission reaches the file: with the acceptance (on_accept), or at the next palimpsest_save (on_save).' },
  }, ['publish']),
  type: ['object', 'null'],
  description: 'The workspace file the target was imported from (from_workspace), or null for a target created from content.',
};

const targetState = object(
  {
    status: { const: 'ok' },
    target_file_id: targetId,
    filename: str(),
    target_type: str('Content type (MIME type or language id).'),
    version,
    current_hash: currentHash,
    active_editing_cycle_id: str('Editing cycle the next accepted change belongs to.'),
    source_line_endings: nullable(lineEndings),
    workspace: workspaceBinding,
    log_sequence: logSequence,
  },
  ['workspace', 'log_sequence'],
);

const readHead = { target_file_id: targetId, version, current_hash: currentHash };

const page = (entry: JsonSchema) => ({
  status: { const: 'ok' },
  target_file_id: targetId,
  entries: array(entry, 'Newest first.'),
  has_more: bool(),
  next_sequence: nullable(int('Pass as before_sequence for the next page.')),
});

/** An attempt-log entry: a summary by default; with detail, the full record (the fields marked optional here). */
const attemptEntry = object(
  {
    attempt_id: str(),
    log_sequence: int('Global position of the attempt\'s event.'),
    status: { enum: ['accepted', 'rejected'] },
    before_version: int(),
    after_version: nullable(int()),
    code: nullable(str('Summary: why it was rejected (the diagnostic code), null when accepted.')),
    summary: str('Summary: one line saying what happened.'),
    client_request_id: nullable(str()),
    intent: nullable(str()),
    source: str(),
    created_at: str('ISO 8601.'),
    protocol_version: nullable(str('Detail: null when the submission named no valid protocol.')),
    runtime_version: nullable(str('Detail.')),
    request_fingerprint: sha256('Detail: fingerprint of the canonical request.'),
    before_hash: str('Detail.'),
    after_hash: nullable(str('Detail.')),
    failure_reason: nullable(str('Detail.')),
    diagnostic: nullable(anyObject),
  },
  ['code', 'summary', 'protocol_version', 'runtime_version', 'request_fingerprint', 'before_hash', 'after_hash', 'failure_reason', 'diagnostic'],
);

const ledgerEntry = object({
  ledger_sequence: int('log_sequence × 100000 + change_index.'),
  attempt_id: str(),
  log_sequence: int(),
  before_version: int(),
  after_version: int(),
  change_index: int(),
  change_id: str(),
  intent: nullable(str()),
  origin: str(),
  derived: anyObject,
  created_at: str('ISO 8601.'),
});

const candidate = object(
  {
    id: str('Candidate UUID.'),
    version: int('Candidate version (+1 per extension).'),
    state: { enum: ['open', 'applied', 'discarded', 'expired'] },
    intent: nullable(str()),
    base: array(object({ target_file_id: targetId, filename: str(), version: int(), hash: str() })),
    request_id: str(),
    created_at: str('ISO 8601.'),
    expires_at: str('ISO 8601.'),
  },
  [],
);

const checkResult = object({
  check: str(),
  kind: str(),
  status: str(),
  ok: bool(),
  targets: array(object({ target_file_id: targetId, ok: bool(), message: nullable(str()) }, ['message'])),
});

const candidateFile = object({
  target_file_id: targetId,
  filename: str(),
  change: str('created, modified or unchanged.'),
  base_version: int(),
  before_sha256: str(),
  after_sha256: str(),
});

export const ANSWER_SCHEMAS: { [N in OperationName]: JsonSchema } = {
  palimpsest_initialize_target: targetState,
  palimpsest_handle_upload: targetState,
  palimpsest_get_target: {
    ...targetState,
    required: [...(targetState.required as string[]), 'current_content'],
    properties: { ...(targetState.properties as object), current_content: str('The canonical LF text.') },
  },
  palimpsest_export_target: object({
    status: { const: 'ok' },
    ...readHead,
    filename: str(),
    format: { enum: ['original_text', 'canonical_lf', 'crlf', 'original_eol'] },
    content: str('The text with the requested line endings.'),
    content_eol: str(),
    content_sha256: sha256('SHA-256 of content as returned.'),
    source_line_endings: nullable(lineEndings),
  }),
  palimpsest_read_target: object({
    status: { const: 'ok' },
    ...readHead,
    start: int('Code points.'),
    end: int(),
    text: str(),
    total_chars: int('Length of the whole text, code points.'),
    truncated: bool(),
    next_start: nullable(int('Pass as start for the next page.')),
  }),
  palimpsest_read_lines: object(
    {
      status: { const: 'ok' },
      ...readHead,
      total_lines: int(),
      start_line: int(),
      end_line: int(),
      start: int('Code points.'),
      end: int(),
      text: str(),
      truncated: bool(),
      next_offset: nullable(int()),
      next_start: nullable(int()),
      line_starts: array(object({ line: int(), start: int() }), 'With include_line_starts.'),
    },
    ['line_starts'],
  ),
  palimpsest_observe_scope: object(
    {
      status: { enum: ['candidates', 'observed', 'observed_batch', 'scope_page'] },
      observation_id: nullable(str('The recorded observation (observed, scope_page); null for candidates.')),
      target_file_id: targetId,
      target_version: version,
      target_current_hash: currentHash,
      editing_cycle_id: str('The editing cycle the observation belongs to: a save closes it.'),
      language: str('typescript, tsx, javascript, python, markdown, yaml or json.'),
      engine: str('The pinned engine and parser versions, recorded with the observation.'),
      candidates: array(object({ name: str(), kind: str(), parent: nullable(str()), start: int(), end: int(), start_line: int(), end_line: int() }), 'candidates: at most 200, ranked.'),
      total_candidates: int(),
      candidates_truncated: bool(),
      symbol: object({ name: str(), kind: str(), parent: nullable(str('The enclosing symbol\'s qualified name.')) }),
      scope_start: int('Code points, absolute.'),
      scope_end: int('Exclusive.'),
      scope_length: int(),
      observed_scope_hash: sha256('SHA-256 of the scope text.'),
      offset: int('Page start within the scope.'),
      max_chars: int(),
      start: int('Page start, absolute.'),
      end: int(),
      text: str('The page of the scope text.'),
      truncated: bool(),
      next_offset: nullable(int('Pass as offset with observation_id for the next page.')),
      next_start: nullable(int()),
      start_line: int(),
      end_line: int(),
      line_starts: array(object({ line: int(), start: int() }), 'With include_line_starts.'),
      bundle_id: nullable(str('observed_batch: the bundle; scope_page: the bundle the scope belongs to, or null.')),
      scope_count: int(),
      scopes: array(anyObject, 'observed_batch: one receipt per selection, in order (ordinal 1-based), each with the observed fields.'),
    },
    ['observation_id', 'editing_cycle_id', 'candidates', 'total_candidates', 'candidates_truncated', 'symbol', 'scope_start', 'scope_end', 'scope_length',
      'observed_scope_hash', 'offset', 'max_chars', 'start', 'end', 'text', 'truncated', 'next_offset', 'next_start', 'start_line', 'end_line', 'line_starts',
      'bundle_id', 'scope_count', 'scopes'],
  ),
  palimpsest_find_occurrences: object({
    status: { const: 'ok' },
    ...readHead,
    occurrence_count: int(),
    returned_count: int(),
    occurrences: array(object({ occurrence_index: int('Pass as occurrence_index.'), start: int(), end: int(), before: str(), after: str() })),
    truncated: bool(),
    next_occurrence_index: nullable(int()),
  }),
  palimpsest_submit_edits: acceptedAnswer,
  palimpsest_submit_operations: acceptedAnswer,
  palimpsest_submit_observed_operations: observedAcceptedAnswer,
  palimpsest_submit_replacement: acceptedAnswer,
  palimpsest_preview: previewAnswer,
  palimpsest_save: object(
    {
      status: { const: 'saved' },
      target_file_id: targetId,
      snapshot_id: str(),
      closed_editing_cycle_id: str(),
      new_editing_cycle_id: str(),
      current_hash: currentHash,
      version,
      workspace_sync: object({
        synced_path: str('The published file, relative to the workspace root.'),
        disk_sha256: str('SHA-256 of the bytes installed.'),
        bytes_written: int(),
        content_eol: { enum: ['lf', 'crlf', 'cr'] },
        publication: { const: 'installed' },
        durability: { enum: ['confirmed', 'uncertain'] },
        journal: object({ id: str('The publication journal (stream publication-<id>).'), state: { enum: ['committed'] } }),
      }),
    },
    ['workspace_sync'],
  ),
  palimpsest_replay: object(
    {
      status: { enum: ['success', 'failed'], description: 'failed: the replayed state differs from the stored one (a report, not an error).' },
      target_file_id: targetId,
      reconstructed_hash: nullable(str('Null when the history could not be replayed.')),
      current_hash: nullable(str()),
      reconstructed_version: nullable(int()),
      current_version: nullable(int()),
      accepted_transactions_replayed: int(),
      materialized_state_matches: bool(),
      materialized_state_checks: object({ content_matches: bool(), stored_hash_matches: bool(), recomputed_hash_matches: bool(), version_matches: bool() }),
      failure_reason: { enum: ['replay_protocol_invalid', 'replay_diverged'], description: 'failed: why the replay stopped.' },
      failure_detail: str(),
      diverged_attempt_id: str('replay_diverged: the attempt whose recorded outcome the engine did not reproduce.'),
    },
    ['failure_reason', 'failure_detail', 'diverged_attempt_id'],
  ),
  palimpsest_get_attempt_log: object(page(attemptEntry)),
  palimpsest_get_manifest_ledger: object(page(ledgerEntry)),
  palimpsest_capabilities: object({
    status: { const: 'ok' },
    service: { const: 'palimpsest' },
    profile: str('The tool profile in effect.'),
    policy: nullable(anyObject),
    operations: array(object({ name: str(), read_only: bool(), status: str('With detail: available or not_permitted.'), errors: array(str('With detail: the codes this operation answers.')) }, ['status', 'errors'])),
    error_codes: array(str('The codes the listed operations answer.')),
    workspace: object({
      configured: bool('True when PALIMPSEST_WORKSPACE_ROOT names a directory, opened at start.'),
      root: nullable(str('The root as configured (an absolute path).')),
      device: nullable(str('The root directory\'s device number, in decimal (it can exceed 2^53).')),
      inode: nullable(str('The root directory\'s inode number, in decimal.')),
    }),
    limits: { type: 'object', additionalProperties: { type: 'integer' } },
    profiles: array(object({ protocol: str(), runtime: str(), operations: array(str()) })),
    detail: bool('True when every operation of the catalog is listed with its status and codes.'),
  }),
  ...WORKSPACE_ANSWERS, ...READ_MODEL_ANSWERS,
  ...PROJECT_ANSWERS,
  palimpsest_change_propose: object({
    status: { const: 'ok' },
    replayed: bool('True when the same request_id returned the recorded answer.'),
    candidate,
    operations: array(object({ index: int(), kind: str(), target_file_id: targetId, outcome: str() })),
    files: array(candidateFile),
    checks: array(checkResult),
    required_checks: array(str()),
  }),
  palimpsest_edit_plan: object({
    status: { const: 'ok' },
    outcome: str('supported, or why the plan cannot be applied as is.'),
    operations: array(object({ index: int(), kind: str(), target_file_id: targetId, outcome: str() })),
    files: array(candidateFile),
    required_checks: array(str()),
    suggested_checks: array(str()),
  }),
  palimpsest_change_inspect: object({
    status: { const: 'ok' },
    candidate,
    files: array(candidateFile),
    targets: array(object({ target_file_id: targetId, filename: str(), change: str(), base_version: int(), current_version: nullable(int('The target\'s version now; null when its row was not found.')) })),
    checks: array(checkResult, 'With include checks (the default).'),
  }, ['checks']),
  palimpsest_check_run: object({
    status: { const: 'ok' },
    ok: bool('True when every check passed (a failed check is an answer, not an error).'),
    candidate: str(),
    candidate_version: int(),
    checks: array(checkResult),
  }),
  palimpsest_change_apply: object({
    status: { const: 'ok' },
    replayed: bool('True when the same request_id returned the recorded receipt.'),
    receipt: object({
      receipt_id: str(),
      request_id: str(),
      input_fingerprint: sha256('SHA-256 over the canonical apply input (candidate, expected_candidate_version, require_checks).'),
      outcome: { type: 'string', enum: ['applied', 'not_applied', 'unknown'], description: 'applied: every target and file written. An answer always says applied; not_applied and unknown are reported in an error\'s details.outcome.' },
      candidate: str(),
      candidate_version: int(),
      targets: array(object({ target_file_id: targetId, attempt_id: str(), base_version: int(), result_version: int(), before_sha256: str(), after_sha256: str() })),
      files: array(
        object({
          path: str('The workspace path the target is bound to.'),
          target_file_id: targetId,
          before_sha256: nullable(sha256('SHA-256 of the file\'s bytes on disk before the apply.')),
          after_sha256: sha256('SHA-256 of the bytes installed (the target\'s text in the file\'s recorded line endings).'),
          change: { type: 'string', enum: ['modified', 'created'] },
        }),
        'Each workspace file the apply wrote, through its journal. [] when the candidate writes no target bound to a file of the configured workspace.',
      ),
      journal: {
        type: ['object', 'null'],
        required: ['id', 'state'],
        properties: { id: str('The publication journal id.'), state: { type: 'string', enum: ['committed', 'rolled_back', 'pending_reconcile'] } },
        description: 'The apply journal that wrote `files`; null when the candidate writes no workspace file (no journal is kept then).',
      },
      approval_id: nullable(str()),
      recorded_at: str('ISO 8601.'),
    }),
    base_changes: array(
      object({
        target_file_id: targetId,
        base_version: int(),
        current_version: int(),
        base_sha256: str(), current_sha256: str(),
        disk: object({ path: str(), expected_sha256: nullable(str()), observed_sha256: nullable(str()) }),
      }, ['disk']),
      'The read inputs that changed since the base (their target moved, or the file was edited outside Palimpsest); only on a first apply that found some.',
    ),
  }, ['base_changes']),
  palimpsest_change_discard: object({ status: { const: 'ok' }, candidate, released: bool() }),
  ...GROUP_ANSWERS,
};
