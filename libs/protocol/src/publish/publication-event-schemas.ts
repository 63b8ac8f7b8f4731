import type { JsonSchema } from '../catalog/operation-spec';
import { all, count, nullable, sha256, text, timestamp, uuid } from './event-schema-parts';
import { payloadSchemas } from './payload-schemas';

/**
 * JSON Schemas (2020-12) of the publication journal's event payloads (stream `publication-<journal_id>`),
 * schema version 1, published beside the other events under schemas/events/.
 */

const decimal = { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'A device or inode number, in decimal.' };
const path = { type: 'string', minLength: 1, description: 'Canonical relative POSIX path under the workspace root.' };

const planned = all({
  target_id: uuid,
  path,
  target_version: count,
  staged_sha256: sha256,
  replaced_sha256: { ...nullable(sha256), description: 'The bytes the file must hold now; null when the publication creates it.' },
  bytes: count,
  content_eol: { enum: ['lf', 'crlf', 'cr'] },
  stage_name: text,
  backup_name: nullable(text),
});
const installed = all({ target_id: uuid, path, disk_sha256: sha256, bytes_written: count, durability: { enum: ['confirmed', 'uncertain'] } });
const failed = all({ target_id: uuid, path, disk_sha256: nullable(sha256), outcome: { enum: ['not_applied', 'restored', 'unknown'] } });

const PAYLOADS: Record<string, [string, JsonSchema]> = {
  PublicationStarted: [
    'A publication of target text to workspace files was planned; recorded before any file is touched.',
    all({
      journal_id: uuid,
      kind: { enum: ['save', 'apply', 'write'] },
      request_id: nullable({ type: 'string', minLength: 1, maxLength: 128 }),
      candidate_id: nullable(uuid),
      root_dev: decimal,
      root_ino: decimal,
      files: { type: 'array', minItems: 1, items: planned },
      started_at: timestamp,
    }),
  ],
  PublicationCompleted: [
    'Every file of the journal holds its staged bytes, durably: the journal is committed.',
    all({ journal_id: uuid, files: { type: 'array', items: installed }, reconciled: { type: 'boolean' }, completed_at: timestamp }),
  ],
  PublicationFailed: [
    'The journal ended without installing (rolled_back), or with files that hold neither version (pending_reconcile).',
    all({
      journal_id: uuid,
      state: { enum: ['rolled_back', 'pending_reconcile'] },
      reason: { enum: ['external_disk_drift', 'target_moved', 'io_error', 'interrupted', 'recovery_required'] },
      detail: text,
      files: { type: 'array', items: failed },
      reconciled: { type: 'boolean' },
      failed_at: timestamp,
    }),
  ],
  PublicationResolved: [
    "A pending_reconcile journal was closed: the file's bytes were taken into its target.",
    all({ journal_id: uuid, resolution: { enum: ['refreshed'] }, target_id: uuid, attempt_id: nullable(uuid), resolved_at: timestamp }),
  ],
};

export function publicationEventSchemas(base: string): Record<string, JsonSchema> {
  return payloadSchemas(base, PAYLOADS);
}
