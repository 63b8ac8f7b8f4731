import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { snapshotStreamId } from '@palimpsest/core/snapshot/snapshot.events';
import { isSnapshotHandle, LATEST, type SnapshotHandle } from '@palimpsest/core/snapshot/snapshot-root';
import { recordedSnapshot, type RecordedSnapshot } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { AppContext } from '../app-context';

export type SnapshotUnknown = RefusalDetails & { status: 'not_found'; code: 'snapshot_unknown'; failure_detail: string; snapshot: string };

const OPEN_LATEST = { operation: OP.palimpsest_open_snapshot, reason: 'Capture the files on disk now and read with the handle it returns', params: {} };

export const invalidSnapshot = (value: string): InvalidArgument =>
  invalidArgument('invalid_snapshot', `snapshot ${JSON.stringify(value.slice(0, 80))} is neither "latest" nor a handle: sha256: and 64 lowercase hex digits, as palimpsest_open_snapshot (workspace/open) returns it.`, {
    argument: 'snapshot',
    next_actions: [OPEN_LATEST],
  });

export const snapshotUnknown = (handle: string): SnapshotUnknown => ({
  status: 'not_found',
  code: 'snapshot_unknown',
  snapshot: handle,
  failure_detail: `no capture under this workspace root recorded ${handle}: a handle names content a palimpsest_open_snapshot (workspace/open) recorded here (a read-only session's capture lives until the service restarts). Open latest and use the handle it returns.`,
  next_actions: [OPEN_LATEST],
});

/** A snapshot named by a handle (not `latest`), or why there is none. */
export async function findSnapshot(ctx: AppContext, root: WorkspaceRoot, value: string): Promise<({ ok: true } & NamedSnapshot) | { ok: false; answer: InvalidArgument | SnapshotUnknown }> {
  if (!isSnapshotHandle(value)) return { ok: false, answer: invalidSnapshot(value) };
  const found = await snapshotNamed(ctx, root, value);
  return found ? { ok: true, ...found } : { ok: false, answer: snapshotUnknown(value) };
}

export interface NamedSnapshot {
  snapshot: RecordedSnapshot;
  /** Held by this process for a read-only session (HeldSnapshots), not recorded. */
  held: boolean;
}

/** The snapshot a handle names under this root: recorded on the log, else held by this process for a read-only session. */
export async function snapshotNamed(ctx: AppContext, root: WorkspaceRoot, handle: SnapshotHandle): Promise<NamedSnapshot | null> {
  const streamId = snapshotStreamId(handle, root);
  const recorded = await recordedSnapshot(ctx.db, streamId);
  if (recorded) return { snapshot: recorded, held: false };
  const held = ctx.heldSnapshots.get(streamId);
  return held ? { snapshot: held, held: true } : null;
}

export const isLatest = (value: string | null | undefined): boolean => value == null || value === LATEST;

/** What an answer says of a snapshot: its handle, log position, capture time and size. */
export function snapshotSummary(s: RecordedSnapshot) {
  return { id: s.data.snapshot, log_sequence: s.position, captured_at: s.data.captured_at, files: s.data.files.length, total_bytes: s.data.total_bytes };
}
