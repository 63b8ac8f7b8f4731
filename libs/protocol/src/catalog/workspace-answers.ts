import type { OperationName } from './catalog';
import type { JsonSchema } from './operation-spec';
import { bool, currentHash, int, nullable, object, sha256, str, targetId, version, array } from './answer-schema-parts';

/** The answers of the workspace operations and seed 004's write tools (beside answer-schemas.ts). */

/** What an auditor needs of a file-tool write beside the seed's fields. */
const fileWriteAudit: Record<string, JsonSchema> = {
  target_file_id: str('The target bound to the file: its attempts, ledger and replay hold every write.'),
  attempt_id: nullable(str('The accepted attempt (tx/1 edit or tx/3 replacement); null when write_file created the target.')),
  version: int('The target version the file now holds.'),
  current_hash: currentHash,
  disk_sha256: sha256('SHA-256 of the bytes on disk: the file\'s baseline from now on.'),
  content_eol: { enum: ['lf', 'crlf', 'cr'], description: 'The line endings written: the file\'s recorded style (LF for a file recorded with mixed endings).' },
  bound_now: bool('True when this call bound the file to a new target (its first touch).'),
  external_attempt_id: nullable(str('A change made outside Palimpsest, taken in first as an accepted attempt with source external_disk.')),
  journal: object({ id: str('The publication journal that installed the file.'), state: { const: 'committed' } }),
  cleanup_error: str('Removing the backup after installation failed (the write itself committed).'),
};

type WorkspaceOperation = 'palimpsest_workspace_refresh' | 'palimpsest_workspace_status' | 'edit_file' | 'write_file';

export const WORKSPACE_ANSWERS: { [N in WorkspaceOperation & OperationName]: JsonSchema } = {
  palimpsest_workspace_refresh: object(
    {
      status: { enum: ['refreshed', 'in_sync'], description: 'in_sync: the file still holds its baseline bytes; nothing was recorded.' },
      target_file_id: targetId,
      path: str('Relative POSIX path of the file under the workspace root.'),
      attempt_id: nullable(str('The accepted whole replacement (source external_disk) that took the text in; null when only bytes moved.')),
      version,
      current_hash: currentHash,
      disk_sha256: sha256('SHA-256 of the file bytes: the baseline from now on.'),
      previous_disk_sha256: sha256('The baseline the bytes drifted from.'),
      journal_resolved: nullable(str('The pending_reconcile publication journal this refresh resolved.')),
    },
    ['attempt_id', 'previous_disk_sha256', 'journal_resolved'],
  ),
  palimpsest_workspace_status: object({
    status: { const: 'ok' },
    root: object({ path: str(), dev: str('Device number, in decimal.'), ino: str('Inode number, in decimal.') }),
    files: array(
      object(
        {
          path: str(),
          target_file_id: targetId,
          version,
          disk_version: int('The target version whose text the file holds: a target past it is ahead of its file (pending).'),
          publish: { enum: ['on_accept', 'on_save'], description: 'When an accepted direct submission reaches the file: with the acceptance, or at the next palimpsest_save.' },
          state: {
            enum: ['in_sync', 'drifted', 'missing', 'pending', 'unreachable'],
            description: 'pending: a publication journal is open, or the target is ahead of the file (version > disk_version) until it is saved.',
          },
          disk_sha256: sha256('The bytes the file should hold (last imported, published or refreshed).'),
          observed_sha256: { type: ['string', 'null'], description: 'SHA-256 of the bytes on disk now; null when they cannot be read.' },
          journal: { type: ['object', 'null'], description: 'The open publication journal: id and state (started or pending_reconcile).' },
          code: str('unreachable: the path refusal (PATH_SYMLINK, …) or workspace_root_mismatch.'),
        },
        ['code'],
      ),
    ),
    total: int('Bound files the filter matches, over every page.'),
    truncated: bool(),
    next_cursor: nullable(str('Pass as cursor for the next page.')),
  }),
  edit_file: object(
    {
      status: { const: 'ok' },
      path: str('The file edited, relative to the project root.'),
      replacements: int('Always 1: oldString matched exactly once.'),
      diff: str('Unified diff of the edit over the LF text, with whole-file line numbers.'),
      ...fileWriteAudit,
    },
    ['cleanup_error'],
  ),
  write_file: object(
    {
      status: { const: 'ok' },
      path: str('The file written, relative to the project root.'),
      bytesWritten: int('Bytes on disk now (an existing file keeps its line-ending style, so they can differ from the content\'s UTF-8 length).'),
      created: bool('True when the file did not exist and was created (parents included).'),
      ...fileWriteAudit,
    },
    ['cleanup_error'],
  ),
};
