import { OP } from '@palimpsest/core/errors/operation-names.generated';
import { findOperation } from '../catalog/catalog';
import type { OperationSpec } from '../catalog/operation-spec';

/**
 * The image protocol's workspace methods, served by the catalog operations that answer them: `workspace/open`
 * captures (or reopens) a snapshot and answers its handle, `workspace/status` says the disk's state and
 * the recorded handles. Params and results are the operations' own.
 */
export const WORKSPACE_METHODS: Readonly<Record<string, string>> = {
  'workspace/open': OP.palimpsest_open_snapshot,
  'workspace/status': OP.palimpsest_snapshot_status,
};

/** The catalog operation a JSON-lines method names: a workspace method's operation, else the method itself. */
export const operationOfMethod = (method: string): string => (Object.hasOwn(WORKSPACE_METHODS, method) ? WORKSPACE_METHODS[method]! : method);

/** Each workspace method with the catalog operation that answers it (a name the catalog lacks fails here, loudly). */
export function workspaceMethodOperations(): [string, OperationSpec][] {
  return Object.entries(WORKSPACE_METHODS).map(([alias, name]) => {
    const op = findOperation(name);
    if (!op) throw new Error(`workspace method ${alias} names no catalog operation ${name}`);
    return [alias, op];
  });
}
