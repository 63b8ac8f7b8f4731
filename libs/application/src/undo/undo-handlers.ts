import type { UNDO_OPERATIONS } from '@palimpsest/protocol/catalog/operations/undo.operations';
import type { OperationHandler } from '../dispatch/operation-handler';
import { changesSince } from '../changes-since/changes-since.handler';
import { relocateRange } from '../changes-since/relocate-range.handler';
import { undoAttempt } from './undo-attempt.handler';
import { undoEdit } from './undo-edit.handler';
import { showingWrite } from '../read-models/replica-reads';

type UndoOperation = (typeof UNDO_OPERATIONS)[number]['name'];

/** The history operations that follow or undo writes (one entry each in the dispatch table). */
export const UNDO_HANDLERS: { [N in UndoOperation]: OperationHandler<N> } = {
  palimpsest_changes_since: (ctx, a) => showingWrite(ctx, a, (c) => changesSince(c, a)),
  palimpsest_relocate_range: (ctx, a) => relocateRange(ctx, a),
  palimpsest_undo_attempt: (ctx, a, s) => undoAttempt(ctx, a, s.correlationId ?? null),
  palimpsest_undo_edit: (ctx, a, s) => undoEdit(ctx, a, s.correlationId ?? null),
};
