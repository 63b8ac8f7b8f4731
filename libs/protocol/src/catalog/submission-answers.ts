import { anyObject, array, bool, currentHash, int, logSequence, nullable, object, sha256, str, targetId } from './answer-schema-parts';
import { observedAcceptance } from './observed-answers';

/** The answers of the submissions (direct and observed) and of a preview: what a guarded write decided. */

const changeFact = object(
  {
    change_id: str(),
    change_index: int('1-based position in the transaction.'),
    span_start: int('Code points, in the text before the change.'),
    span_end: int(),
    matched_chars: int(),
    replacement_chars: int(),
    matched_sha256: sha256('SHA-256 of the replaced text.'),
    replacement_sha256: sha256('SHA-256 of the replacement.'),
    operation: str(),
  },
  ['operation'],
);

const validity = object({
  protocol_valid: bool(),
  transaction_valid: bool(),
  task_correct: str('Not evaluated by the engine.'),
  semantic: str('Not evaluated by the engine.'),
});

const warnings = {
  warnings: array(str(), 'Warning codes.'),
  warning_details: array(anyObject),
  warning_count: int(),
  warnings_truncated: bool(),
};

const rebased = object({
  from_version: int('The version the submission was written against.'),
  through_attempts: int('Acceptances it was carried through (none touched its ranges); palimpsest_get_attempt_log names them.'),
  spans: array(
    object({ change_index: int(), from_start: int(), from_end: int(), start: int(), end: int() }),
    'Each change\'s range as submitted (from_start, from_end) and as applied (start, end), in code points.',
  ),
});

export const acceptedAnswer = object(
  {
    status: { const: 'accepted' },
    target_file_id: targetId,
    before_hash: sha256('Hash the proposal was decided on.'),
    after_hash: sha256('Hash after the change.'),
    version: int('The new version.'),
    current_version: int(),
    current_hash: currentHash,
    attempt_id: str('The recorded attempt (palimpsest_get_attempt_log).'),
    log_sequence: logSequence,
    manifest_entries_added: int('Ledger entries this change added.'),
    ...warnings,
    validity,
    evidence: object({ changes: array(changeFact) }),
    deduplicated: bool('True when this is the recorded outcome of an earlier identical request (same client_request_id).'),
    client_request_id: nullable(str()),
    correlation_id: str('Fresh UUIDv4, with include_correlation_id (never stored).'),
    rebased: { ...rebased, description: 'Present when a stale submission was rebased (rebase: true) and applied at a later version.' },
    workspace_sync: object({
      synced_path: str('The bound file the change was published to, relative to the workspace root.'),
      disk_sha256: sha256('SHA-256 of the bytes installed: the file\'s baseline from now on.'),
      bytes_written: int(),
      content_eol: str('The line endings written (the file\'s recorded style).'),
      publication: { const: 'installed' },
      durability: { enum: ['confirmed', 'uncertain'] },
      journal: object({ id: str('The publication journal.'), state: { const: 'committed' } }),
    }, ['cleanup_error']),
  },
  ['correlation_id', 'rebased', 'workspace_sync'],
);

export const observedAcceptedAnswer = observedAcceptance(acceptedAnswer);

export const previewAnswer = object(
  {
    status: { enum: ['accepted', 'rejected'], description: 'What submitting this proposal now would answer (advisory).' },
    preview: { const: true },
    advisory: { const: true },
    target_file_id: targetId,
    stage: str('Where the evaluation ended.'),
    validity,
    current_version: int(),
    current_hash: currentHash,
    before_version: int(),
    before_hash: sha256('Hash the proposal was evaluated on.'),
    after_hash: nullable(sha256('Hash the text would have (null when rejected).')),
    change_facts: array(changeFact),
    failure_reason: str('When rejected: why.'),
    diagnostic: nullable(anyObject),
  },
  // A guard refused before evaluation (malformed or stale expected version or hash) answers rejected without the evaluation's fields.
  ['stage', 'validity', 'before_version', 'before_hash', 'after_hash', 'change_facts', 'failure_reason', 'diagnostic'],
);
