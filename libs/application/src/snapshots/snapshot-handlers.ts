import type { SNAPSHOT_OPERATIONS } from '@palimpsest/protocol/catalog/operations/snapshots.operations';
import type { OperationHandler } from '../dispatch/operation-handler';
import { openSnapshot } from './open-snapshot.handler';
import { readSnapshotFile } from './read-snapshot-file.handler';
import { snapshotStatus } from './snapshot-status.handler';

type SnapshotOperation = (typeof SNAPSHOT_OPERATIONS)[number]['name'];

/** The snapshot operations' handlers, spread into OPERATION_HANDLERS. */
export const SNAPSHOT_HANDLERS: { [N in SnapshotOperation]: OperationHandler<N> } = {
  palimpsest_open_snapshot: (ctx, a, s) => openSnapshot(ctx, a, s.correlationId),
  palimpsest_snapshot_status: (ctx, a) => snapshotStatus(ctx, a),
  palimpsest_read_snapshot_file: (ctx, a, s) => readSnapshotFile(ctx, a, s.correlationId),
};
