import type { OperationSpec } from './operation-spec';
import {
  exportTarget,
  getAttemptLog,
  getManifestLedger,
  getTarget,
  handleUpload,
  initializeTarget,
  replay,
  save,
} from './operations/lifecycle.operations';
import { capabilities, preview } from './operations/meta.operations';
import { findOccurrences, readLines, readTarget } from './operations/reads.operations';
import { submitEdits, submitOperations, submitReplacement } from './operations/submissions.operations';
import { CANDIDATE_OPERATIONS } from './operations/candidates.operations';
import { workspaceRefresh, workspaceStatus } from './operations/workspace.operations';
import { FILE_READ_OPERATIONS } from './operations/file-reads.operations';
import { editFile, writeFile } from './operations/file-writes.operations';
import { observeScope, submitObservedOperations } from './operations/scopes.operations';
import { READ_MODEL_OPERATIONS } from './operations/read-models.operations';
import { COMMAND_OPERATIONS } from './operations/commands.operations';
import { UNDO_OPERATIONS } from './operations/undo.operations';
import { AUDIT_OPERATIONS } from './operations/audit.operations';
import { HISTORY_OPERATIONS } from './operations/history.operations';
import { PROOF_OPERATIONS } from './operations/proofs.operations';
import { SNAPSHOT_OPERATIONS } from './operations/snapshots.operations';
import { CODE_GRAPH_OPERATIONS } from './operations/code-graph.operations';
import { PROJECT_OPERATIONS, relayable } from './operations/projects.operations';

/**
 * The one list of operations. Order is the order tools are advertised in. Declared `as const`, so
 * OperationName is the union of the names: a misspelled or unknown operation is a compile error.
 */
export const CATALOG = [
  initializeTarget,
  handleUpload,
  getTarget,
  exportTarget,
  readTarget,
  readLines,
  findOccurrences,
  observeScope,
  submitObservedOperations,
  submitEdits,
  submitOperations,
  submitReplacement,
  preview,
  save,
  replay,
  getAttemptLog,
  getManifestLedger,
  capabilities,
  workspaceRefresh,
  workspaceStatus,
  ...FILE_READ_OPERATIONS.map(relayable),
  relayable(editFile),
  relayable(writeFile),
  ...COMMAND_OPERATIONS.map(relayable),
  ...CANDIDATE_OPERATIONS,
  ...READ_MODEL_OPERATIONS,
  ...UNDO_OPERATIONS,
  ...AUDIT_OPERATIONS,
  ...HISTORY_OPERATIONS,
  ...PROOF_OPERATIONS,
  ...SNAPSHOT_OPERATIONS,
  ...CODE_GRAPH_OPERATIONS,
  ...PROJECT_OPERATIONS,
] as const satisfies readonly OperationSpec[];

export type OperationName = (typeof CATALOG)[number]['name'];

const BY_NAME: ReadonlyMap<string, OperationSpec<OperationName>> = new Map(CATALOG.map((op) => [op.name, op]));

export function isOperationName(name: string): name is OperationName {
  return BY_NAME.has(name);
}

export function findOperation(name: string): OperationSpec<OperationName> | undefined {
  return BY_NAME.get(name);
}

/** The spec of a name the type system already knows is in the catalog. */
export function operationSpec<N extends OperationName>(name: N): OperationSpec<N> {
  return BY_NAME.get(name) as OperationSpec<N>;
}
