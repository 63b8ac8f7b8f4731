import { statusResult } from '../fragments';
import { defineOperation, type JsonSchema } from '../operation-spec';

/**
 * Workspace snapshots: a content-derived handle for the files under the workspace root (a Merkle root of
 * their paths and SHA-256 digests), recorded in the log at the position it was captured, so a snapshot
 * reads like an as-of read of its files at that position. JSON lines serves the first two as
 * `workspace/open` and `workspace/status` too.
 */

export const SNAPSHOT_LIMITS = {
  /** Files one snapshot may hold (regular files under the root, as a recursive list_files walks them). */
  MAX_SNAPSHOT_FILES: 20_000,
  /** Changed paths an answer lists (the count is always whole). */
  MAX_CHANGED_PATHS: 100,
  /** Snapshots a status lists (newest first). */
  MAX_STATUS_SNAPSHOTS: 100,
} as const;

const snapshotArgument = (description: string): JsonSchema => ({ type: 'string', minLength: 1, maxLength: 256, description });

export const SNAPSHOT_ERRORS = ['workspace_not_configured', 'invalid_snapshot', 'snapshot_unknown', 'snapshot_too_large'];
const PATH_CODES = ['PATH_ESCAPE', 'PATH_INVALID', 'PATH_RESERVED', 'PATH_TOO_LONG'];

export const openSnapshot = defineOperation({
  name: 'palimpsest_open_snapshot',
  title: 'Open a snapshot',
  description:
    'Capture the workspace files (latest) or reopen a snapshot: its sha256: handle (same content, same handle), log position, disk changes since. Writes no file; a read-only session records nothing (held).',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    properties: { snapshot: snapshotArgument('"latest" (default) or a handle.') },
  },
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: SNAPSHOT_ERRORS,
  examples: [],
});

export const snapshotStatus = defineOperation({
  name: 'palimpsest_snapshot_status',
  title: 'Snapshot status',
  description: 'The disk against the newest snapshot (unchanged, changed: paths, no_snapshot), the handle of the disk now, the snapshots newest first.',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    properties: { limit: { type: ['integer', 'null'], minimum: 1, maximum: SNAPSHOT_LIMITS.MAX_STATUS_SNAPSHOTS, description: 'Snapshots to list (default 20).' } },
  },
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument']),
  errors: ['workspace_not_configured', 'snapshot_too_large'],
  examples: [],
});

export const readSnapshotFile = defineOperation({
  name: 'palimpsest_read_snapshot_file',
  title: 'Read a file of a snapshot',
  description:
    'A file as a snapshot holds it (from the log), as read_file reads; snapshot.disk names the paths changed on disk since.',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['snapshot', 'path'],
    properties: {
      snapshot: snapshotArgument('A handle, or "latest".'),
      path: { type: 'string', minLength: 1, description: 'Path under the root.' },
      offset: { type: 'integer', minimum: 1, maximum: 9007199254740991, description: '1-based line to start at.' },
      limit: { type: 'integer', minimum: 1, maximum: 9007199254740991, description: 'Lines to return.' },
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'not_found', 'invalid_argument']),
  errors: [...SNAPSHOT_ERRORS, 'path_not_in_snapshot', 'snapshot_content_unavailable', 'INVALID_ARGUMENTS', ...PATH_CODES],
  examples: [],
});

export const SNAPSHOT_OPERATIONS = [openSnapshot, snapshotStatus, readSnapshotFile] as const;
