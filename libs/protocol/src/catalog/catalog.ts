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

/** The one list of operations. Order is the order tools are advertised in. */
export const CATALOG: readonly OperationSpec[] = [
  initializeTarget,
  handleUpload,
  getTarget,
  exportTarget,
  readTarget,
  readLines,
  findOccurrences,
  submitEdits,
  submitOperations,
  submitReplacement,
  preview,
  save,
  replay,
  getAttemptLog,
  getManifestLedger,
  capabilities,
  ...CANDIDATE_OPERATIONS,
];

export type OperationName = (typeof CATALOG)[number]['name'];

export function findOperation(name: string): OperationSpec | undefined {
  return CATALOG.find((op) => op.name === name);
}
