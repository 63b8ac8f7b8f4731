import {
  EXAMPLE_TARGET_ID,
  targetParams,
  beforeSequence,
  guardHash,
  guardVersion,
  historyLimit,
  readYourWrites,
  statusResult,
  targetFileId,
  UUID_PATTERN,
} from '../fragments';
import { defineOperation } from '../operation-spec';
import { AS_OF_ERRORS, asOfParam } from './history.operations';

const initializeParams = {
  type: 'object',
  additionalProperties: false,
  required: ['filename'],
  properties: {
    filename: {
      type: 'string',
      minLength: 1,
      description: 'Document filename; with from_workspace, the POSIX path of the file under the workspace root.',
    },
    content: {
      type: ['string', 'null'],
      description: 'Full document text; line endings are normalized to LF and the source style is recorded.',
    },
    content_type: { type: ['string', 'null'], description: 'MIME type or language id (default "text/plain").' },
    project_id: { type: ['string', 'null'], pattern: UUID_PATTERN, description: 'Optional project UUID.' },
    from_workspace: {
      type: 'boolean',
      description:
        'Read filename from the workspace (omit content) and bind the target to it.',
    },
    publish: {
      enum: ['on_accept', 'on_save', null],
      description: 'on_save: submissions wait for a save.',
    },
  },
};

const { publish: _publish, ...uploadProperties } = initializeParams.properties;

const initializeExample = {
  title: 'Create a target from inline text',
  params: { filename: 'notes.md', content: 'alpha beta alpha\n', content_type: 'text/markdown' },
};

export const initializeTarget = defineOperation({
  name: 'palimpsest_initialize_target',
  title: 'Initialize target',
  description:
    'Create a target from text: LF content at version 0, a snapshot, an editing cycle, its source line endings recorded.',
  readOnly: false,
  params: initializeParams,
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument', 'not_found']),
  errors: [
    'invalid_argument',
    'invalid_text_encoding',
    'file_too_large',
    'missing_content',
    'workspace_not_configured',
    'content_conflicts_with_workspace',
    'publish_needs_workspace',
    'PATH_ESCAPE',
    'PATH_INVALID',
    'PATH_RESERVED',
    'PATH_TOO_LONG',
    'PATH_NOT_FOUND',
    'PATH_SYMLINK',
    'PATH_NOT_A_FILE',
    'PATH_CHANGED',
  ],
  examples: [initializeExample],
});

export const handleUpload = defineOperation({
  ...initializeTarget,
  name: 'palimpsest_handle_upload',
  title: 'Handle upload',
  description: 'Upload alias of palimpsest_initialize_target: content is required.',
  params: {
    ...initializeParams,
    required: ['filename', 'content'],
    properties: {
      ...uploadProperties,
      from_workspace: { type: 'boolean', description: 'Refused if true.' },
    },
  },
  errors: ['invalid_argument', 'invalid_text_encoding', 'missing_content', 'upload_from_workspace'],
  examples: [],
});

const targetOnly = targetParams();

export const getTarget = defineOperation({
  name: 'palimpsest_get_target',
  title: 'Get target',
  description: 'Current canonical content, hash, version, active editing cycle and source line endings of a target.',
  readOnly: true,
  params: targetParams({ as_of: asOfParam }),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'invalid_target_file_id', ...AS_OF_ERRORS],
  examples: [],
});

export const exportTarget = defineOperation({
  name: 'palimpsest_export_target',
  title: 'Export target',
  description:
    'Export the text with explicit line endings: original_text / canonical_lf (LF), crlf, or original_eol (the recorded uniform upload style).',
  readOnly: true,
  params: {
    ...targetOnly,
    properties: {
      target_file_id: targetFileId,
      format: {
        type: ['string', 'null'],
        description: 'original_text (default), canonical_lf, crlf or original_eol.',
      },
      as_of: asOfParam,
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'unsupported_export_format', 'original_eol_unrecoverable', 'source_line_endings_unknown', ...AS_OF_ERRORS],
  examples: [],
});

export const save = defineOperation({
  name: 'palimpsest_save',
  title: 'Save checkpoint',
  description:
    'Snapshot the current target and rotate its editing cycle without changing the text. Optional guards: every supplied guard is checked; prefer the version guard.',
  readOnly: false,
  params: targetParams({
    expected_target_version: guardVersion,
    expected_current_hash: guardHash,
    export_after_save: { type: 'boolean', description: 'Add a default-format export of the saved text to the result.' },
    sync_workspace: {
      type: ['boolean', 'null'],
      description:
        "Also publish to the target's workspace file (null: yes for an on_save binding, else PALIMPSEST_WORKSPACE_SYNC_ON_SAVE).",
    },
    workspace_eol_format: {
      type: ['string', 'null'],
      description: 'original_eol (default), canonical_lf or crlf.',
    },
  }),
  admission: 'audited',
  edgeFields: ['target_file_id', 'export_after_save', 'sync_workspace', 'workspace_eol_format'],
  result: statusResult(['saved', 'rejected', 'partial', 'not_found', 'invalid_argument']),
  errors: [
    'not_found',
    'target_version_mismatch',
    'target_hash_mismatch',
    'context_invalid',
    'workspace_not_configured',
    'target_not_bound_to_workspace',
    'workspace_root_mismatch',
    'unsupported_workspace_eol_format',
    'original_eol_unrecoverable',
    'workspace_busy',
    'external_disk_drift',
    'recovery_required',
    'workspace_io_error',
    'workspace_durability_uncertain',
    'workspace_checkpoint_uncertain',
    'workspace_post_install_error',
    'PATH_NOT_FOUND',
    'PATH_SYMLINK',
    'PATH_CHANGED',
  ],
  examples: [{ title: 'Checkpoint at version 0', params: { target_file_id: EXAMPLE_TARGET_ID, expected_target_version: 0 } }],
  advertisedExamples: 0,
});

export const replay = defineOperation({
  name: 'palimpsest_replay',
  title: 'Replay target',
  description:
    'Reconstruct the target from its initial snapshot and accepted attempts (by each recorded protocol and runtime) and compare with the materialized state. Reports divergence; never repairs.',
  readOnly: true,
  params: targetOnly,
  admission: 'schema',
  result: statusResult(['success', 'failed', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'replay_protocol_invalid', 'replay_diverged'],
  examples: [],
});

export const getAttemptLog = defineOperation({
  name: 'palimpsest_get_attempt_log',
  title: 'Attempt log',
  description:
    'Newest-first page of the attempt log (summaries), filterable by status, content hash or request key; then before_sequence = next_sequence.',
  readOnly: true,
  params: targetParams({
    limit: historyLimit,
    before_sequence: beforeSequence,
    status: { enum: ['accepted', 'rejected', null], description: 'Only attempts with this status.' },
    content_hash: { type: ['string', 'null'], description: 'Only attempts whose submitted content has this SHA-256.' },
    client_request_id: { type: ['string', 'null'], description: 'Only the attempt bound to this request key.' },
    include_content: {
      type: 'boolean',
      description: 'Include each submitted record (pages within 1 MiB; the first entry always whole).',
    },
    detail: { type: 'boolean', description: 'Full entries, not summaries.' },
    min_position: readYourWrites,
  }),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'invalid_argument'],
  examples: [{ title: 'The ten newest attempts', params: { target_file_id: EXAMPLE_TARGET_ID, limit: 10 } }],
  advertisedExamples: 0,
});

export const getManifestLedger = defineOperation({
  name: 'palimpsest_get_manifest_ledger',
  title: 'Manifest ledger',
  description:
    'Accepted changes, oldest-first within the newest page. By default only the active editing cycle; include_previous_cycles adds cycles closed by palimpsest_save.',
  readOnly: true,
  params: targetParams({
    include_previous_cycles: { type: 'boolean', description: 'Include entries from closed editing cycles.' },
    limit: historyLimit,
    before_sequence: beforeSequence,
    min_position: readYourWrites,
  }),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'invalid_argument'],
  examples: [{ title: 'Every accepted change, all cycles', params: { target_file_id: EXAMPLE_TARGET_ID, include_previous_cycles: true, limit: 50 } }],
  advertisedExamples: 0,
});
