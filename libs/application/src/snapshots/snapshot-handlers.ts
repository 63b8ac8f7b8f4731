import type { SNAPSHOT_OPERATIONS } from '@palimpsest/protocol/catalog/operations/snapshots.operations';
import type { HandlerSession, OperationHandler } from '../dispatch/operation-handler';
import type { CaptureMode } from './capture-snapshot';
import { openSnapshot } from './open-snapshot.handler';
import { readSnapshotFile } from './read-snapshot-file.handler';
import { snapshotStatus } from './snapshot-status.handler';

type SnapshotOperation = (typeof SNAPSHOT_OPERATIONS)[number]['name'];

/** A read-only session's capture of `latest` is held, not recorded. */
export const captureMode = (s: HandlerSession): CaptureMode => ({ readOnly: s.profile === 'read-only', correlationId: s.correlationId });

/** The snapshot operations' handlers, spread into OPERATION_HANDLERS. */
export const SNAPSHOT_HANDLERS: { [N in SnapshotOperation]: OperationHandler<N> } = {
  palimpsest_open_snapshot: (ctx, a, s) => openSnapshot(ctx, a, captureMode(s)),
  palimpsest_snapshot_status: (ctx, a) => snapshotStatus(ctx, a),
  palimpsest_read_snapshot_file: (ctx, a, s) => readSnapshotFile(ctx, a, captureMode(s)),
};
