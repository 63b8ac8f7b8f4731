import type { ContentEol } from '../reads/export-target';

/**
 * The publication journal: every write of target text to a workspace file goes through one. A journal is
 * its own stream (`publication-<journal_id>`) because one publication can write several files (a candidate
 * apply), each bound to its own target. PublicationStarted commits before any file is touched; exactly
 * one outcome follows: PublicationCompleted (committed), PublicationFailed (rolled_back or
 * pending_reconcile). A pending_reconcile journal is closed by PublicationResolved once the file's bytes
 * have been taken into its target (palimpsest_workspace_refresh).
 */

export const PUBLICATION_EVENT_SCHEMA_VERSION = 1;

/**
 * save: palimpsest_save (no text change, settled forward); apply: a candidate apply; write: the agent file
 * tools (edit_file, write_file), whose accepted edit or new target commits with PublicationCompleted, so
 * an interrupted one is rolled back like an apply.
 */
export type PublicationKind = 'save' | 'apply' | 'write';

/** One file of a publication as planned before it is touched. */
export interface PlannedFile {
  target_id: string;
  /** Canonical relative POSIX path under the workspace root. */
  path: string;
  /** The target version whose text is staged. */
  target_version: number;
  /** SHA-256 of the bytes to install (the staged file). */
  staged_sha256: string;
  /** SHA-256 the file must hold now: its last imported, published or refreshed bytes; null when the file must not exist (creation). */
  replaced_sha256: string | null;
  bytes: number;
  content_eol: ContentEol;
  /** The staging file's name in the destination directory. */
  stage_name: string;
  /** A hard link to the replaced file kept until the journal commits (multi-file apply), or null. */
  backup_name: string | null;
}

export interface PublicationStartedData {
  journal_id: string;
  kind: PublicationKind;
  /** change_apply's request_id; null for a save or a file-tool write. */
  request_id: string | null;
  candidate_id: string | null;
  root_dev: string;
  root_ino: string;
  files: PlannedFile[];
  started_at: string;
}

export type Durability = 'confirmed' | 'uncertain';

export interface InstalledFile {
  target_id: string;
  path: string;
  disk_sha256: string;
  bytes_written: number;
  durability: Durability;
}

export interface PublicationCompletedData {
  journal_id: string;
  files: InstalledFile[];
  /** True when the outcome was established by reconciliation (start-up or a resent request), not by the run that staged the bytes. */
  reconciled: boolean;
  completed_at: string;
}

export type PublicationFailureReason =
  | 'external_disk_drift'
  | 'target_moved'
  | 'io_error'
  | 'interrupted'
  | 'recovery_required';

export type FileOutcome = 'not_applied' | 'restored' | 'unknown';

export interface FailedFile {
  target_id: string;
  path: string;
  /** What the file held when the outcome was decided (null: absent). */
  disk_sha256: string | null;
  outcome: FileOutcome;
}

export interface PublicationFailedData {
  journal_id: string;
  state: 'rolled_back' | 'pending_reconcile';
  reason: PublicationFailureReason;
  detail: string;
  files: FailedFile[];
  reconciled: boolean;
  failed_at: string;
}

export interface PublicationResolvedData {
  journal_id: string;
  /** How the pending journal was closed: the file's bytes were taken into its target. */
  resolution: 'refreshed';
  target_id: string;
  attempt_id: string | null;
  resolved_at: string;
}

export type PublicationEvent =
  | { type: 'PublicationStarted'; data: PublicationStartedData }
  | { type: 'PublicationCompleted'; data: PublicationCompletedData }
  | { type: 'PublicationFailed'; data: PublicationFailedData }
  | { type: 'PublicationResolved'; data: PublicationResolvedData };

export type PublicationEventType = PublicationEvent['type'];

export const PUBLICATION_EVENT_TYPES: readonly PublicationEventType[] = [
  'PublicationStarted',
  'PublicationCompleted',
  'PublicationFailed',
  'PublicationResolved',
];

export function publicationStreamId(journalId: string): string {
  return `${PUBLICATION_STREAM_PREFIX}${journalId}`;
}

export const PUBLICATION_STREAM_PREFIX = 'publication-';

export class UnknownPublicationEventError extends Error {
  constructor(readonly eventType: string, readonly schemaVersion: number) {
    super(`no upcaster for publication event ${eventType} schema version ${schemaVersion}`);
  }
}

/** Lift a stored journal event to the current shape; version 1 is the only released one. */
export function upcastPublicationEvent(type: string, schemaVersion: number, data: unknown): PublicationEvent {
  if (!PUBLICATION_EVENT_TYPES.includes(type as PublicationEventType) || schemaVersion !== PUBLICATION_EVENT_SCHEMA_VERSION) {
    throw new UnknownPublicationEventError(type, schemaVersion);
  }
  return { type, data } as PublicationEvent;
}
