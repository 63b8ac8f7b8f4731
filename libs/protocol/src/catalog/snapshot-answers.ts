import type { OperationName } from './catalog';
import type { JsonSchema } from './operation-spec';
import { array, bool, int, nullable, object, sha256, str, targetId } from './answer-schema-parts';

/** The answers of the snapshot operations (operations/snapshots.operations.ts), beside answer-schemas.ts. */

const handle = { type: 'string', pattern: '^sha256:[0-9a-f]{64}$', description: 'The snapshot handle: sha256: and the lowercase hex Merkle root of its (path, file SHA-256) leaves.' };

export const diskState = object({
  state: { enum: ['unchanged', 'changed'], description: 'changed: a file of the snapshot differs on disk now, is gone, or a new file is there.' },
  changed_paths: array(object({ path: str(), change: { enum: ['modified', 'deleted', 'added'] } }), 'In path order, at most 100.'),
  changed_total: int('Every changed path, listed or not.'),
  latest: { ...handle, description: 'The handle of the files on disk now.' },
});

export const snapshotSummary = object({
  id: handle,
  log_sequence: int('The log position it was captured at (a held capture: the log\'s newest position then): as_of {position} reads of its files agree with it.'),
  captured_at: str('When it was first captured (RFC 3339).'),
  files: int('Regular files under the root.'),
  total_bytes: int(),
});

type SnapshotOperation = 'palimpsest_open_snapshot' | 'palimpsest_snapshot_status' | 'palimpsest_read_snapshot_file';

export const SNAPSHOT_ANSWERS: { [N in SnapshotOperation & OperationName]: JsonSchema } = {
  palimpsest_open_snapshot: object({
    status: { const: 'ok' },
    snapshot: object({ ...(snapshotSummary.properties as Record<string, JsonSchema>), disk: diskState }),
    recorded: bool('True when this call recorded the capture (false: that content was already a snapshot, or it is held).'),
    held: bool('True for a read-only session\'s capture of content no snapshot recorded: the log is not written; this service holds the handle until it restarts.'),
    root: str('The workspace root.'),
  }),
  palimpsest_snapshot_status: object({
    status: { const: 'ok' },
    state: { enum: ['unchanged', 'changed', 'no_snapshot'], description: 'The files on disk against the newest snapshot.' },
    latest: { ...handle, description: 'The handle of the files on disk now (open it to record it).' },
    latest_recorded: bool('Whether that handle is already a snapshot.'),
    disk: nullable({ ...diskState, description: 'Against the newest snapshot (null when there is none).' }),
    snapshots: array(snapshotSummary, 'Newest first.'),
    total: int('Snapshots recorded under this root.'),
    root: str(),
  }),
  palimpsest_read_snapshot_file: object({
    status: { const: 'ok' },
    path: str(),
    content: str(),
    truncated: bool(),
    totalLines: int(),
    file: object({
      sha256: sha256('SHA-256 of the file bytes in the snapshot.'),
      source: { enum: ['log', 'disk'], description: 'log: the bound target at that version; disk: an unbound file still holding those bytes.' },
      target_file_id: nullable(targetId),
      version: nullable(int()),
    }),
    snapshot: object({ id: handle, log_sequence: int(), disk: diskState }),
  }),
};
