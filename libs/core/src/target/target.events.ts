import type { LineEndingStyle, SourceLineEndings } from '../text/canonical-text';
import type {
  ChangeAnnotation,
  ChangeFact,
  FailureReason,
  ValidationStage,
  WarningDetail,
} from '../transaction/transaction.types';
import type { TextEffect } from '../transaction/text-effect';
import { rerunAcceptance } from './acceptance-replay';

/**
 * The target stream's events. Each payload carries what replay and every read model need;
 * `schemaVersion` travels beside the payload in the store and `upcastTargetEvent` lifts old shapes.
 * Published schemas live in schemas/events/ and are frozen once released.
 */


export interface TargetInitializedData {
  target_id: string;
  filename: string;
  content_type: string;
  project_id: string | null;
  /** Canonical LF text: the initial snapshot replay starts from. */
  content: string;
  current_hash: string;
  source_line_endings: SourceLineEndings | null;
  editing_cycle_id: string;
  snapshot_id: string;
  initialized_at: string;
}

/** Fields every attempt records, accepted or rejected. */
export interface AttemptData {
  attempt_id: string;
  target_id: string;
  protocol_version: string | null;
  runtime_version: string | null;
  /** The submitted record (canonical JSON text), or ASCII-escaped invalid-input evidence. */
  content: string;
  content_hash: string;
  request_fingerprint: string;
  /** Null on request-key conflicts and invalid keys: the key stays bound to its first attempt. */
  client_request_id: string | null;
  expected_target_version: number | null;
  expected_current_hash: string | null;
  parent_attempt_id: string | null;
  regeneration_attempt: number | null;
  source: string;
  intent: string | null;
  editing_cycle_id: string;
  submitted_at: string;
}

export interface WarningSummary {
  warnings: string[];
  warning_details: WarningDetail[];
  warning_count: number;
  warnings_truncated: boolean;
}

/** ProposalAccepted as schema version 1 recorded it: what was asked, with per-change facts and hashes only. */
export interface ProposalAcceptedV1Data extends AttemptData {
  before_version: number;
  after_version: number;
  before_hash: string;
  after_hash: string;
  change_facts: ChangeFact[];
  annotations: ChangeAnnotation[];
  warnings: WarningSummary | null;
}

/**
 * Version 2 adds what the acceptance did: its effects in the preimage's code points (ascending, disjoint;
 * a whole replacement is one effect over the whole preimage). Folds apply them; only replay re-runs the engine.
 */
export interface ProposalAcceptedData extends ProposalAcceptedV1Data {
  effects: TextEffect[];
  /**
   * Set when a stale submission (rebase: true) was rebased through the acceptances since its
   * expected_target_version (schema version 3; absent otherwise). `content` is the record as applied.
   */
  rebased?: RebasedFrom;
}

/** A span of a rebased submission: its range as submitted (at from_version) and as applied. */
export interface RebasedSpan {
  change_index: number;
  from_start: number;
  from_end: number;
  start: number;
  end: number;
}

/**
 * What a rebase did: the version the submission was written against, the acceptances it was carried
 * through (none of which touched its ranges), the moved spans (tx/2; a tx/1 match is found again and
 * moves with its text) and the SHA-256 of the record as submitted.
 */
export interface RebasedFrom {
  from_version: number;
  through_attempt_ids: string[];
  spans: RebasedSpan[];
  submitted_content_hash: string;
}

export interface ProposalRejectedData extends AttemptData {
  /** The target's state observed at decision time (nothing changed). */
  before_version: number;
  before_hash: string;
  failure_reason: FailureReason;
  failure_detail: string;
  failed_change_id: string | null;
  validation_stage: ValidationStage;
  retryable: boolean;
  diagnostic: Record<string, unknown>;
}

export interface CheckpointSavedData {
  target_id: string;
  snapshot_id: string;
  snapshot_reason: 'save_checkpoint';
  closed_editing_cycle_id: string;
  new_editing_cycle_id: string;
  version: number;
  current_hash: string;
  saved_at: string;
}

/**
 * The target was imported from a workspace file (palimpsest_initialize_target with from_workspace) and is
 * bound to it: the root directory's identity, the path under it, the file's identity and the bytes read.
 * Recorded right after TargetInitialized, in the same append; it changes no text.
 */
export interface WorkspaceFileBoundData {
  target_id: string;
  /** The canonical relative POSIX path under the root (libs/core/src/workspace/workspace-path.ts). */
  path: string;
  /** The root directory's device and inode (decimal strings: they can exceed 2^53). */
  root_dev: string;
  root_ino: string;
  file_dev: string;
  file_ino: string;
  /** SHA-256 of the file's bytes as read. */
  source_sha256: string;
  source_line_ending_style: LineEndingStyle;
  bound_at: string;
}

/**
 * A bound file's bytes, changed outside Palimpsest, were taken in (palimpsest_workspace_refresh): the file's
 * new baseline. When the decoded text differed, the accepted whole replacement `attempt_id` (source
 * external_disk, recorded just before in the same append) took it in; null when the text already equalled
 * the target's (only bytes moved: line endings, a BOM). It changes no text by itself.
 */
export interface WorkspaceFileRefreshedData {
  target_id: string;
  path: string;
  /** SHA-256 of the bytes taken in: what the file should hold from now on. */
  disk_sha256: string;
  previous_disk_sha256: string;
  attempt_id: string | null;
  source_line_ending_style: LineEndingStyle;
  refreshed_at: string;
}

/** When an accepted direct submission reaches a bound file: with the acceptance, or at the next save. */
export const PUBLISH_MODES = ['on_accept', 'on_save'] as const;
export type PublishMode = (typeof PUBLISH_MODES)[number];

/**
 * A bound target's publication mode was set (palimpsest_initialize_target from_workspace with publish, or
 * PALIMPSEST_WORKSPACE_PUBLISH): recorded right after WorkspaceFileBound when it is not the default
 * on_accept. It changes no text.
 */
export interface WorkspacePublishSetData {
  target_id: string;
  publish: PublishMode;
  set_at: string;
}

/** What an exact selection asked for: the selector as given (never trimmed). */
export interface ScopeSelector {
  symbol_name: string;
  kind: string | null;
}

/** The symbol the engine named for it. */
export interface ObservedSymbol {
  name: string;
  kind: string;
  parent: string | null;
}

/**
 * One observed scope: everything an observed submission re-verifies under the target's row lock (target,
 * editing cycle, version and hash, bounds and scope hash, and the engine that named it, which must name
 * the same scope again).
 */
export interface ObservedScope {
  observation_id: string;
  selector: ScopeSelector;
  symbol: ObservedSymbol;
  /** Code points into the canonical text of target_version, end exclusive. */
  scope_start: number;
  scope_end: number;
  /** SHA-256 of the scope's text. */
  observed_scope_hash: string;
}

/** Fields of the target's state an observation was made at, and the engine pass that made it. */
export interface ObservationBase {
  target_id: string;
  editing_cycle_id: string;
  target_version: number;
  target_hash: string;
  language: string;
  /** e.g. "palimpsest-structure@2 web-tree-sitter@0.27.2 tree-sitter-typescript@0.23.2". */
  engine: string;
  observed_at: string;
}

/** palimpsest_observe_scope selected one scope exactly (single form). It changes no text. */
export type ScopeObservedData = ObservationBase & ObservedScope;

/**
 * palimpsest_observe_scope selected 1–32 disjoint scopes from one snapshot and one engine pass (bundle
 * form), in selection order (`ordinal` 1-based). All or none: no partial issuance. It changes no text.
 */
export interface BundleObservedData extends ObservationBase {
  bundle_id: string;
  scopes: (ObservedScope & { ordinal: number })[];
}

export type TargetEvent =
  | { type: 'TargetInitialized'; data: TargetInitializedData }
  | { type: 'ProposalAccepted'; data: ProposalAcceptedData }
  | { type: 'ProposalRejected'; data: ProposalRejectedData }
  | { type: 'CheckpointSaved'; data: CheckpointSavedData }
  | { type: 'WorkspaceFileBound'; data: WorkspaceFileBoundData }
  | { type: 'WorkspaceFileRefreshed'; data: WorkspaceFileRefreshedData }
  | { type: 'WorkspacePublishSet'; data: WorkspacePublishSetData }
  | { type: 'ScopeObserved'; data: ScopeObservedData }
  | { type: 'BundleObserved'; data: BundleObservedData };

export type TargetEventType = TargetEvent['type'];

export const TARGET_EVENT_TYPES: readonly TargetEventType[] = [
  'TargetInitialized',
  'ProposalAccepted',
  'ProposalRejected',
  'CheckpointSaved',
  'WorkspaceFileBound',
  'WorkspaceFileRefreshed',
  'WorkspacePublishSet',
  'ScopeObserved',
  'BundleObserved',
];

/** The schema version each event type is written as (ProposalAccepted is at 2, the others at 1). */
export const TARGET_EVENT_SCHEMA_VERSIONS: Readonly<Record<TargetEventType, number>> = {
  TargetInitialized: 1,
  ProposalAccepted: 2,
  ProposalRejected: 1,
  CheckpointSaved: 1,
  WorkspaceFileBound: 1,
  WorkspaceFileRefreshed: 1,
  WorkspacePublishSet: 1,
  ScopeObserved: 1,
  BundleObserved: 1,
};

/** A rebased acceptance (with `rebased`) is written as ProposalAccepted version 3; every other as above. */
export const PROPOSAL_ACCEPTED_REBASED_VERSION = 3;

export function targetEventSchemaVersion(typeOrEvent: TargetEventType | TargetEvent): number {
  if (typeof typeOrEvent === 'string') return TARGET_EVENT_SCHEMA_VERSIONS[typeOrEvent];
  if (typeOrEvent.type === 'ProposalAccepted' && typeOrEvent.data.rebased) return PROPOSAL_ACCEPTED_REBASED_VERSION;
  return TARGET_EVENT_SCHEMA_VERSIONS[typeOrEvent.type];
}

export function targetStreamId(targetId: string): string {
  return `target-${targetId}`;
}

export class UnknownEventSchemaError extends Error {
  constructor(readonly eventType: string, readonly schemaVersion: number) {
    super(`no upcaster for ${eventType} schema version ${schemaVersion}`);
  }
}

/**
 * Lift a stored event to the current shape; stored rows are never edited. A version-1 ProposalAccepted
 * has no effects, and its effects depend on the text it applied to, so the upcast takes the preimage:
 * every reader of target events folds the stream (replay, rebuild, the online rebuild, the texts a
 * candidate reads), so it knows the text before each event and passes it, lazily (`preimage` is only
 * called for a version-1 acceptance). The recorded runtime profile runs once, on read, and its effects are
 * what every fold applies; a profile that no longer applies throws ReplayDivergence, as evolve did.
 */
export function upcastTargetEvent(type: string, schemaVersion: number, data: unknown, preimage: () => string): TargetEvent {
  if (!TARGET_EVENT_TYPES.includes(type as TargetEventType)) {
    throw new UnknownEventSchemaError(type, schemaVersion);
  }
  const eventType = type as TargetEventType;
  if (eventType === 'ProposalAccepted' && schemaVersion === 1) {
    const v1 = data as ProposalAcceptedV1Data;
    return { type: eventType, data: { ...v1, effects: rerunAcceptance(preimage(), v1).effects } };
  }
  if (eventType === 'ProposalAccepted' && schemaVersion === PROPOSAL_ACCEPTED_REBASED_VERSION) return { type, data } as TargetEvent;
  if (schemaVersion !== TARGET_EVENT_SCHEMA_VERSIONS[eventType]) throw new UnknownEventSchemaError(type, schemaVersion);
  return { type, data } as TargetEvent;
}
