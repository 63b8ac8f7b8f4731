import type { FileTarget } from './file-target';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import type { Written } from './write-answers';

/** What an auditor needs beside the seed's fields: the target, the attempt, the version and the journal that wrote the file. */
export function auditFields(t: Extract<FileTarget, { kind: 'bound' }> | { row: { target_id: string }; external_attempt_id: string | null; bound_now: boolean }, w: Written, after: { version: number; current_hash: string }) {
  return {
    target_file_id: t.row.target_id,
    attempt_id: w.attempt_id,
    version: after.version,
    current_hash: after.current_hash,
    disk_sha256: w.disk_sha256,
    content_eol: w.content_eol,
    bound_now: t.bound_now,
    external_attempt_id: t.external_attempt_id,
    journal: { id: w.journal_id, state: 'committed' as const },
    ...(w.cleanup_error === null ? {} : { cleanup_error: w.cleanup_error }),
  };
}

/** write_file's answer for a file it created: the new target, bound now. */
export function createdAnswer(path: string, targetId: string, w: Written, after: { version: number; current_hash: string }): Success<OP.write_file> {
  return { status: 'ok', path, bytesWritten: w.bytes_written, created: true, ...auditFields({ row: { target_id: targetId }, bound_now: true, external_attempt_id: null }, w, after) };
}
