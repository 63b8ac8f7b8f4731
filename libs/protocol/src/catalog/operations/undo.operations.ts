import type { JsonSchema } from '../operation-spec';
import { defineOperation } from '../operation-spec';
import { EXAMPLE_TARGET_ID, readYourWrites, statusResult, targetFileId, UUID_PATTERN } from '../fragments';
import { array, bool, int, nullable, object, str, targetId, version } from '../answer-schema-parts';

/**
 * History that writes or follows writes, from the effects every acceptance records: what changed since
 * a point, where a range read then is now, and the undo of an accepted attempt (itself a guarded write).
 */

const MAX_POSITION = 9007199254740991;
const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object', additionalProperties: false, required, properties,
});
const attemptId = { type: 'string', pattern: UUID_PATTERN, description: 'An accepted attempt\'s UUID (attempt_id of its answer or of palimpsest_changes_since).' };
const codePoint = (description: string): JsonSchema => ({ type: 'integer', minimum: 0, maximum: MAX_POSITION, description });

export const CHANGES_SINCE_MAX_LIMIT = 200;
export const CHANGES_SINCE_MAX_INSERTED = 10_000;

export const changesSince = defineOperation({
  name: 'palimpsest_changes_since',
  title: 'Changes since a version or position',
  description:
    'The accepted changes after a point, oldest first: each attempt with its version, time, source and effects (code-point range of the text before it, and the text inserted, bounded). One target from a version or a log position, or with no target every workspace file from a position. Paged: pass next_position as from_position.',
  readOnly: true,
  params: closed({
    target_file_id: { ...targetFileId, type: ['string', 'null'], description: 'Target UUID; omit for every workspace-bound file.' },
    from_version: { type: ['integer', 'null'], minimum: 0, maximum: MAX_POSITION, description: 'Changes after this version of the target.' },
    from_position: { type: ['integer', 'null'], minimum: 0, maximum: MAX_POSITION, description: 'Changes after this global log position (log_sequence, next_position).' },
    limit: { type: ['integer', 'null'], minimum: 1, maximum: CHANGES_SINCE_MAX_LIMIT, description: 'Attempts per page (default 50, max 200).' },
    max_inserted_code_points: { type: ['integer', 'null'], minimum: 0, maximum: CHANGES_SINCE_MAX_INSERTED, description: 'Inserted text kept per effect (default 200, max 10,000); longer is cut and marked.' },
    min_position: readYourWrites,
  }),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'invalid_target_file_id', 'missing_from', 'version_ahead'],
  examples: [{ title: 'What changed since version 0', params: { target_file_id: EXAMPLE_TARGET_ID, from_version: 0 } }],
  advertisedExamples: 0,
});

export const relocateRange = defineOperation({
  name: 'palimpsest_relocate_range',
  title: 'Relocate a range to the current version',
  description:
    'Where a code-point range read at one version is now: moved (same text, new offsets), unchanged, rewritten (an accepted change touched it: the range spans what replaced it) or deleted, with the attempts that touched it. Give target, version, start and end, or an observation_id (its scope and version).',
  readOnly: true,
  params: closed({
    target_file_id: { ...targetFileId, type: ['string', 'null'] },
    version: { type: ['integer', 'null'], minimum: 0, maximum: MAX_POSITION, description: 'The version the range was read at.' },
    start: { ...codePoint('First code point of the range.'), type: ['integer', 'null'] },
    end: { ...codePoint('End of the range (exclusive).'), type: ['integer', 'null'] },
    observation_id: { type: ['string', 'null'], pattern: UUID_PATTERN, description: 'Relocate an observation\'s scope instead.' },
  }),
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: ['not_found', 'invalid_target_file_id', 'invalid_range', 'version_ahead', 'observation_not_found'],
  examples: [{ title: 'Where "beta" of version 0 is now', params: { target_file_id: EXAMPLE_TARGET_ID, version: 0, start: 6, end: 10 } }],
  advertisedExamples: 0,
});

const UNDO_ERRORS = [
  'attempt_not_found', 'undo_conflict', 'target_version_mismatch', 'external_disk_drift', 'workspace_busy', 'recovery_required',
  'workspace_io_error', 'workspace_not_configured', 'operation_not_permitted',
];

export const undoAttempt = defineOperation({
  name: 'palimpsest_undo_attempt',
  title: 'Undo an accepted attempt',
  description:
    'Apply the inverse of an accepted attempt as a new guarded change (source undo; a bound file is published like any write). Refused, and recorded, when a later attempt touched its ranges: the answer names them and offers palimpsest_changes_since. An undo is an attempt too: undo it to redo.',
  readOnly: false,
  params: closed({
    target_file_id: targetFileId,
    attempt_id: attemptId,
    client_request_id: { type: ['string', 'null'], minLength: 1, maxLength: 128, description: 'Idempotency key: the same key answers the recorded undo.' },
  }, ['target_file_id', 'attempt_id']),
  admission: 'schema',
  result: statusResult(['accepted', 'rejected', 'partial', 'not_found', 'invalid_argument']),
  errors: UNDO_ERRORS,
  examples: [],
});

export const undoEdit = defineOperation({
  name: 'palimpsest_undo_edit',
  title: 'Undo an edit of a file',
  description:
    'palimpsest_undo_attempt for a workspace file, by path: the inverse of the accepted attempt (attempt_id of edit_file or write_file) written to the file through its journal. Refused when a later change touched the same text.',
  readOnly: false,
  params: closed({
    path: { type: 'string', minLength: 1, description: 'Path relative to the project root.' },
    attempt_id: attemptId,
  }, ['path', 'attempt_id']),
  admission: 'schema',
  result: statusResult(['accepted', 'rejected', 'partial', 'not_found', 'invalid_argument']),
  errors: [...UNDO_ERRORS, 'PATH_ESCAPE', 'PATH_INVALID', 'PATH_RESERVED', 'PATH_NOT_FOUND', 'file_not_bound'],
  examples: [],
});

export const UNDO_OPERATIONS = [changesSince, relocateRange, undoAttempt, undoEdit] as const;

const effect = object({
  start: int('First code point replaced, in the text before the change.'),
  end: int('End of the replaced range (exclusive), in the text before the change.'),
  inserted: str('The text put there (cut to max_inserted_code_points).'),
  inserted_code_points: int(),
  inserted_truncated: bool(),
});
const toucher = object({ attempt_id: str(), version });

/** An undo answers as the submission it is (palimpsest_submit_operations' answer), naming what it undid. */
const undoAnswer = object({
  status: { const: 'accepted' },
  undone_attempt_id: str('The attempt undone.'),
  attempt_id: str('The undo\'s own attempt: undo it to redo.'),
  target_file_id: targetId,
  version: int('The version the undo made.'),
  current_hash: str(),
}, []);

/** What each success carries, for the OpenAPI answers (answer-schemas.ts). */
export const UNDO_ANSWERS = {
  palimpsest_changes_since: object({
    status: { const: 'ok' },
    target_file_id: nullable(targetId),
    current_version: nullable(int('The target\'s version now (null for the workspace form).')),
    changes: array(object({
      attempt_id: str(),
      target_file_id: targetId,
      path: nullable(str('The workspace file, when the target is bound to one.')),
      version: int('The version the change made.'),
      log_sequence: int(),
      time: str(),
      source: str('Who made it: model_response, external_disk, undo, …'),
      intent: nullable(str()),
      effects: array(effect),
    })),
    next_position: nullable(int('Pass as from_position for the next page; null on the last.')),
    complete: bool('True when no later change is left.'),
  }),
  palimpsest_relocate_range: object({
    status: { const: 'ok' },
    target_file_id: targetId,
    from: object({ version, start: int(), end: int() }),
    version,
    start: int(),
    end: int(),
    relocation: { enum: ['unchanged', 'moved', 'rewritten', 'deleted'] },
    touched_by: array(toucher),
  }),
  palimpsest_undo_attempt: undoAnswer,
  palimpsest_undo_edit: { ...undoAnswer, properties: { ...(undoAnswer.properties as Record<string, JsonSchema>), path: str('The file, as its canonical path.') } },
} satisfies Record<(typeof UNDO_OPERATIONS)[number]['name'], JsonSchema>;
