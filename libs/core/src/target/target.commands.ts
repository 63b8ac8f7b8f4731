import type { BundleObservedData, PublishMode, ScopeObservedData, WorkspaceFileBoundData } from './target.events';
import type { ProtocolVersion } from '../transaction/transaction.types';
import type { ObservationLink } from '../transaction/observed-scope';
import type { EffectStep } from '../rebase/effect-step';

/** Ids and time come in with every command: the core has no clock and no randomness. */
interface CommandMeta {
  now: string;
}

export interface InitializeTarget extends CommandMeta {
  type: 'InitializeTarget';
  target_id: string;
  filename: string;
  /** Raw upload; normalized to LF by the decider, which records the source line endings. */
  content: string;
  content_type: string;
  project_id: string | null;
  editing_cycle_id: string;
  snapshot_id: string;
  /** Set when the content was read from a workspace file: the target is bound to it (WorkspaceFileBound). */
  workspace?: WorkspaceSource;
  /** With workspace: when accepted direct submissions reach the file (absent: on_accept). */
  publish?: PublishMode;
}

/** Where an imported content came from: the file's place under the root, its identity, the hash of its bytes. */
export type WorkspaceSource = Omit<WorkspaceFileBoundData, 'target_id' | 'source_line_ending_style' | 'bound_at'>;

/** What a new target starts from: its content and names, and the ids and time it is created with. */
export type NewTarget = Omit<InitializeTarget, 'type' | 'workspace' | 'publish'>;

/** A new target's binding: the workspace file its content is (or becomes) and when accepted changes reach it. */
export interface NewTargetBinding {
  workspace: WorkspaceSource;
  publish: PublishMode;
}

/**
 * The InitializeTarget of a new target, bound to a workspace file when `binding` is given (an import, a
 * file a tool created). Built here so callers never assemble the command or pair its binding fields.
 */
export function initializeTargetCommand(target: NewTarget, binding: NewTargetBinding | null = null): InitializeTarget {
  return { type: 'InitializeTarget', ...target, ...(binding ? { workspace: binding.workspace, publish: binding.publish } : {}) };
}

/** What the handler found under the row lock for the request key, if one was sent. */
export interface KeyedAttempt {
  attempt_id: string;
  request_fingerprint: string;
  protocol_version: string | null;
  content: string;
  content_hash: string;
  expected_target_version: number | null;
  expected_current_hash: string | null;
  parent_attempt_id: string | null;
}

/** What the handler found for parent_attempt_id (lineage), if one was sent and well-formed. */
export interface ParentAttempt {
  attempt_id: string;
  target_id: string;
  status: 'accepted' | 'rejected';
}

/** What every submission command carries: the proposal, its guards, lineage and key, and what the handler looked up. */
export interface SubmissionFields extends CommandMeta {
  attempt_id: string;
  target_id: string;
  protocol_version: ProtocolVersion;
  /** Only the proposal keys the caller supplied (intent, edits | operations | replacement). */
  proposal: Record<string, unknown>;
  expected_target_version?: unknown;
  expected_current_hash?: unknown;
  client_request_id?: unknown;
  parent_attempt_id?: unknown;
  regeneration_attempt?: unknown;
  source?: unknown;
  /** A stale expected_target_version may be rebased through the acceptances since it (plain submissions only). */
  rebase?: boolean;
  lookups: {
    keyed: KeyedAttempt | null;
    parent: ParentAttempt | null;
    /** With rebase: the acceptances after expected_target_version, read under the row lock. */
    since?: SinceLookup | null;
  };
}

/** What the handler read for a rebase: the acceptances after `from_version`, in order, and the hash of that version. */
export interface SinceLookup {
  from_version: number;
  from_hash: string;
  steps: EffectStep[];
}

/** A plain submission: tx/1 edits, tx/2 operations or a tx/3 replacement (submit-proposal.decision.ts). */
export interface SubmitProposal extends SubmissionFields {
  type: 'SubmitProposal';
  /**
   * Strict observation mode (seed 003, PALIMPSEST_STRICT_OBSERVATION_MODE=1): a submission that is not
   * observed is a recorded rejection, OBSERVATION_REQUIRED.
   */
  strict_observation?: boolean;
}

/** palimpsest_submit_observed_operations: tx/2 operations bound to one observation (observed-submission.decision.ts). */
export interface SubmitObservedProposal extends SubmissionFields {
  type: 'SubmitObservedProposal';
  observed: ObservedLookup;
}

/** Its batch form: groups of tx/2 operations, each bound to one observation of a bundle (observed-batch.decision.ts). */
export interface SubmitObservedBatch extends SubmissionFields {
  type: 'SubmitObservedBatch';
  batch: BatchLookup;
}

export type SubmissionCommand = SubmitProposal | SubmitObservedProposal | SubmitObservedBatch;

/** What the handler found under the row lock for an observed form: one observation (single) or a bundle's (batch). */
export interface ObservedLookups {
  observed?: ObservedLookup;
  batch?: BatchLookup;
}

/**
 * The submission command of the form the handler looked up: a batch's, an observation's, or else a
 * plain one (`strict`: in strict observation mode). Built here so callers never assemble the variants.
 */
export function submissionCommand(fields: SubmissionFields, found: ObservedLookups | undefined, strict = false): SubmissionCommand {
  if (found?.batch) return { ...fields, type: 'SubmitObservedBatch', batch: found.batch };
  if (found?.observed) return { ...fields, type: 'SubmitObservedProposal', observed: found.observed };
  return plainSubmission(fields, strict);
}

/** A plain submission (the file tools and candidate apply submit nothing observed). */
export function plainSubmission(fields: SubmissionFields, strict = false): SubmitProposal {
  return { ...fields, type: 'SubmitProposal', ...(strict ? { strict_observation: true } : {}) };
}

/** A recorded observation as a batch sees it: with the bundle it belongs to (null for a single one). */
export type BatchObservation = ObservationLink & { consumed_attempt_id: string | null; bundle_id: string | null; ordinal: number | null };

/** What the handler found, under the row lock, for a batch's bundle and the observations its groups name. */
export interface BatchLookup {
  /** Some recorded observation belongs to the bundle (false for an unknown or malformed id). */
  bundle_known: boolean;
  /** The recorded observations the groups name, by lowercase id, whichever bundle they belong to. */
  found: Readonly<Record<string, BatchObservation>>;
  /** Whether the engine, run once on the locked text, names each found observation's scope again (see ObservedLookup). */
  reverified: Readonly<Record<string, boolean>>;
}

/** What the handler found, under the row lock, for the observation a submission names. */
export interface ObservedLookup {
  observation_id: unknown;
  /** The recorded observation of a well-formed id; null when none has it. */
  found: (ObservationLink & { consumed_attempt_id: string | null }) | null;
  /**
   * The structural engine, run on the locked text, names a symbol with exactly the observed bounds
   * (the handler runs it: the core cannot parse). Only meaningful when version and hash still match.
   */
  reverified: boolean;
  /** Present when the submission guards a code node (expected_node_version): that node as the locked text declares it. */
  node_guard?: NodeGuardLookup;
}

/**
 * A code-graph node guard: the version the caller read (palimpsest_node_get) and the observed scope's node
 * in the locked text, as the handler found it (the core cannot parse). `path` is null when the target is
 * bound to no workspace file, `node_id` null when the text declares no node at the observed scope.
 */
export interface NodeGuardLookup {
  expected_node_version: unknown;
  path: string | null;
  node_id: string | null;
  current_node_version: string | null;
}

export interface SaveCheckpoint extends CommandMeta {
  type: 'SaveCheckpoint';
  target_id: string;
  snapshot_id: string;
  new_editing_cycle_id: string;
  expected_target_version?: unknown;
  expected_current_hash?: unknown;
}

/**
 * Record an observation the application made with the structural engine (an adapter: the core cannot
 * parse) on the target row it holds locked: the decider checks it was made on exactly that state.
 */
export interface RecordObservation extends CommandMeta {
  type: 'RecordObservation';
  target_id: string;
  observation: { type: 'ScopeObserved'; data: ScopeObservedData } | { type: 'BundleObserved'; data: BundleObservedData };
}

export type TargetCommand = InitializeTarget | SubmissionCommand | SaveCheckpoint | RecordObservation;
