import type { OperationName } from './catalog';
import type { JsonSchema } from './operation-spec';
import { array, int, nullable, object, sha256, str, targetId, version } from './answer-schema-parts';

/** The answers of the history operations (beside answer-schemas.ts); as_of on a read adds `asOfAnswer`. */

export const asOfAnswer = object({
  version,
  after_hash: sha256('SHA-256 of the text at that version, as recorded when it was written.'),
  written_at: str('When that version was written (RFC 3339).'),
  log_sequence: int('Global log position of the event that made it.'),
  attempt_id: nullable(str('The accepted attempt that made it (null: the target\'s creation).')),
});

const hunk = object({
  header: str('@@ -old_start,old_lines +new_start,new_lines @@'),
  old_start_line: int(), old_lines: int(), new_start_line: int(), new_lines: int(),
  old_start: int('Code points into the older text, context included.'), old_end: int(),
  new_start: int('Code points into the newer text, context included.'), new_end: int(),
  lines: array(str(), 'Unified-diff lines: " " context, "-" removed, "+" added.'),
});

type HistoryOperation = 'palimpsest_diff_versions' | 'palimpsest_file_history' | 'palimpsest_workspace_as_of';

export const HISTORY_ANSWERS: { [N in HistoryOperation & OperationName]: JsonSchema } = {
  palimpsest_diff_versions: object({
    status: { const: 'ok' },
    target_file_id: targetId,
    from: asOfAnswer,
    to: asOfAnswer,
    hunks: array(hunk),
    total_hunks: int(),
    next_hunk: nullable(int('Pass as start_hunk for the next page.')),
    truncated: { type: 'boolean' },
    attempts: array(object({ attempt_id: str(), status: str(), before_version: int(), after_version: nullable(int()), source: str(), intent: nullable(str()), log_sequence: int(), created_at: str() })),
    attempts_next: nullable(int('Pass as after_sequence for the next attempts.')),
  }),
  palimpsest_file_history: object({
    status: { const: 'ok' },
    path: str(),
    target_file_id: targetId,
    versions: array(object({
      version,
      attempt_id: nullable(str()),
      source: { enum: ['created', 'agent', 'external_disk', 'undo'] },
      attempt_source: nullable(str()),
      intent: nullable(str()),
      written_at: str(),
      log_sequence: int(),
      size: nullable(int('Code points of the text after this version.')),
      after_hash: sha256('SHA-256 of the text after this version.'),
    })),
    next_before_version: nullable(int('Pass as before_version for older versions.')),
  }),
  palimpsest_workspace_as_of: object({
    status: { const: 'ok' },
    as_of: { type: 'object' },
    files: array(object({ path: str(), target_file_id: targetId, version, after_hash: sha256('Recorded hash of that version.'), written_at: str(), log_sequence: int() })),
    next_cursor: nullable(str()),
  }),
};
