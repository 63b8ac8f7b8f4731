import type { NextAction } from '@palimpsest/core/errors/error-model';
import { admit } from './admission';
import { findOperation } from './catalog/catalog';

/** A call assembled at run time (an argument renamed, say) as a next action: it names a catalog operation and passes its admission. */
export interface CallDraft {
  operation: string;
  reason: string;
  params: Record<string, unknown>;
}

/** True when the draft is a next action as its type promises: a catalog operation, params it admits as they stand. */
export function isAdmittedCall(draft: CallDraft): draft is CallDraft & NextAction {
  const spec = findOperation(draft.operation);
  return spec !== undefined && admit(spec, draft.params) === null;
}
