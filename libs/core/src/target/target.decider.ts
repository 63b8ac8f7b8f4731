import { canonicalizeUpload } from '../text/canonical-text';
import { findUnstorableText } from '../text/encoding';
import { sha256Hex } from '../text/sha256';
import { applyEffects, effectsFit, type TextEffect } from '../transaction/text-effect';
import { codePointLength } from '../text/code-points';
import { AFTER_HASH_MISMATCH, ReplayDivergence } from './replay-divergence';
import { checkGuardsAgainst, checkGuardSyntax, isNonNegativeInteger } from './guards';
import { decideSubmitProposal } from './submit-proposal.decision';
import { decideObservedSubmission } from './observed-submission.decision';
import { decideObservedBatch } from './observed-batch.decision';
import type { SubmissionOutcome } from './submission-steps';
import type { LineEndingStyle } from '../text/canonical-text';
import type { InitializeTarget, RecordObservation, SaveCheckpoint, TargetCommand, WorkspaceSource } from './target.commands';
import { NO_HINTS, type DecisionHints, type TargetDecision, type TargetRefusal } from './target-decision';
import type { PublishMode, TargetEvent } from './target.events';
import type { ExistingTarget, TargetState } from './target.state';

/** A history that names a target before its TargetInitialized: evolve cannot fold it. */
export class TargetNotFound extends Error {
  constructor(readonly targetId: string) {
    super(`target ${targetId} does not exist`);
  }
}

export { ReplayDivergence } from './replay-divergence';

const refused = (refusal: TargetRefusal): TargetDecision => ({ kind: 'refused', refusal });

function decided(events: TargetEvent[], state: TargetState, hints: DecisionHints = NO_HINTS, recoveredAttemptId: string | null = null): TargetDecision {
  return { kind: 'decided', events, state, recoveredAttemptId, hints };
}

/**
 * A target bound to its workspace file: right after TargetInitialized for an import, or in the outcome of
 * the publication that created the file (a file written under an approval, the target created first).
 */
export function workspaceFileBound(targetId: string, w: WorkspaceSource, style: LineEndingStyle, now: string): TargetEvent {
  return {
    type: 'WorkspaceFileBound',
    data: {
      target_id: targetId,
      path: w.path,
      root_dev: w.root_dev,
      root_ino: w.root_ino,
      file_dev: w.file_dev,
      file_ino: w.file_ino,
      source_sha256: w.source_sha256,
      source_line_ending_style: style,
      bound_at: now,
    },
  };
}

/** A new binding's publication mode, recorded only when it is not the default (on_accept). */
export function workspacePublishSet(targetId: string, publish: PublishMode | undefined, now: string): TargetEvent[] {
  return publish === 'on_save' ? [{ type: 'WorkspacePublishSet', data: { target_id: targetId, publish, set_at: now } }] : [];
}

function initialize(cmd: InitializeTarget, state: TargetState): TargetDecision {
  if (state.exists) return refused({ kind: 'target_exists', target_id: cmd.target_id });
  const bad = findUnstorableText({ filename: cmd.filename, content: cmd.content, content_type: cmd.content_type });
  if (bad) return refused({ kind: 'unstorable_text', argument: bad.replace(/^\$\./, '').split(/[.[]/)[0]! });
  const upload = canonicalizeUpload(cmd.content);
  const events: TargetEvent[] = [
    {
      type: 'TargetInitialized',
      data: {
        target_id: cmd.target_id,
        filename: cmd.filename,
        content_type: cmd.content_type,
        project_id: cmd.project_id,
        content: upload.text,
        current_hash: upload.hash,
        source_line_endings: upload.sourceLineEndings,
        editing_cycle_id: cmd.editing_cycle_id,
        snapshot_id: cmd.snapshot_id,
        initialized_at: cmd.now,
      },
    },
  ];
  if (cmd.workspace) events.push(workspaceFileBound(cmd.target_id, cmd.workspace, upload.sourceLineEndings.style, cmd.now));
  if (cmd.workspace) events.push(...workspacePublishSet(cmd.target_id, cmd.publish, cmd.now));
  return decided(events, events.reduce(evolve, state));
}

function save(cmd: SaveCheckpoint, target: ExistingTarget): TargetDecision {
  const observed = { target_id: target.target_id, current_version: target.version, current_hash: target.current_hash };
  const problem = checkSaveGuardSyntax(cmd);
  if (problem) return refused({ kind: 'guard_invalid', problem, ...observed });
  const version = isNonNegativeInteger(cmd.expected_target_version) ? cmd.expected_target_version : null;
  const hash = typeof cmd.expected_current_hash === 'string' ? cmd.expected_current_hash : null;
  const stale = checkGuardsAgainst(version, hash, target);
  if (stale) return refused({ kind: 'guard_stale', stale, ...observed });
  const events: TargetEvent[] = [
    {
      type: 'CheckpointSaved',
      data: {
        target_id: target.target_id,
        snapshot_id: cmd.snapshot_id,
        snapshot_reason: 'save_checkpoint',
        closed_editing_cycle_id: target.active_editing_cycle_id,
        new_editing_cycle_id: cmd.new_editing_cycle_id,
        version: target.version,
        current_hash: target.current_hash,
        saved_at: cmd.now,
      },
    },
  ];
  return decided(events, events.reduce(evolve, target));
}

/** Save guards are optional; when supplied they must be well-formed. */
function checkSaveGuardSyntax(cmd: SaveCheckpoint) {
  const v = cmd.expected_target_version;
  const h = cmd.expected_current_hash;
  if ((v === undefined || v === null) && (h === undefined || h === null)) return null;
  return checkGuardSyntax(v, h);
}

/** The three submission commands' decisions share their steps (submission-steps.ts); the state after follows alike. */
function submitted(d: SubmissionOutcome, target: ExistingTarget): TargetDecision {
  if (d.kind === 'refused') return d;
  const next: TargetState =
    d.nextContent === null ? target : afterAcceptance(target, d.events[0] as Extract<TargetEvent, { type: 'ProposalAccepted' }>, d.nextContent);
  return decided(d.events, next, { textChange: d.textChange, nearMissSource: d.nearMissSource ?? null }, d.recoveredAttemptId);
}

/**
 * decide(command, state): the events a command decides and the state they lead to, or a refusal
 * (a value, never thrown) when it decides nothing. One shape with the candidate decider.
 */
export function decide(command: TargetCommand, state: TargetState): TargetDecision {
  if (command.type === 'InitializeTarget') return initialize(command, state);
  if (!state.exists) return refused({ kind: 'target_not_found', target_id: command.target_id });
  switch (command.type) {
    case 'SaveCheckpoint':
      return save(command, state);
    case 'SubmitProposal':
      return submitted(decideSubmitProposal(command, state), state);
    case 'SubmitObservedProposal':
      return submitted(decideObservedSubmission(command, state), state);
    case 'SubmitObservedBatch':
      return submitted(decideObservedBatch(command, state), state);
    case 'RecordObservation':
      return observe(command, state);
  }
}

/** An observation made on another state than the locked one is the handler's bug, never a decision. */
export class ObservationStateMismatch extends Error {
  constructor(readonly targetId: string) {
    super(`observation of ${targetId} was not made on the locked target state`);
  }
}

function observe(cmd: RecordObservation, target: ExistingTarget): TargetDecision {
  const d = cmd.observation.data;
  if (d.target_id !== target.target_id || d.target_version !== target.version || d.target_hash !== target.current_hash || d.editing_cycle_id !== target.active_editing_cycle_id) {
    throw new ObservationStateMismatch(target.target_id);
  }
  return decided([cmd.observation], target, NO_HINTS, null);
}

function requireTarget(state: TargetState, targetId: string): ExistingTarget {
  if (!state.exists) throw new TargetNotFound(targetId);
  return state;
}

function afterAcceptance(
  target: ExistingTarget,
  event: Extract<TargetEvent, { type: 'ProposalAccepted' }>,
  content: string,
): ExistingTarget {
  return { ...target, content, version: event.data.after_version, current_hash: event.data.after_hash };
}

/**
 * Fold one event. An acceptance applies its recorded effects (never the engine) and must reach its
 * after_hash; one that does not throws ReplayDivergence.
 */
export function evolve(state: TargetState, event: TargetEvent): TargetState {
  switch (event.type) {
    case 'TargetInitialized': {
      const d = event.data;
      return {
        exists: true,
        target_id: d.target_id,
        filename: d.filename,
        content_type: d.content_type,
        project_id: d.project_id,
        content: d.content,
        version: 0,
        current_hash: d.current_hash,
        active_editing_cycle_id: d.editing_cycle_id,
        source_line_endings: d.source_line_endings,
      };
    }
    case 'ProposalAccepted': {
      const target = requireTarget(state, event.data.target_id);
      return afterAcceptance(target, event, applyAcceptance(target.content, event.data));
    }
    case 'ProposalRejected':
      return state;
    case 'CheckpointSaved': {
      const target = requireTarget(state, event.data.target_id);
      return { ...target, active_editing_cycle_id: event.data.new_editing_cycle_id };
    }
    case 'WorkspaceFileBound':
    case 'WorkspaceFileRefreshed':
    case 'WorkspacePublishSet':
    case 'ScopeObserved':
    case 'BundleObserved':
      return requireTarget(state, event.data.target_id);
  }
}

/** The text an acceptance's effects give from its preimage, checked against its after_hash. */
export function applyAcceptance(preimage: string, data: { attempt_id: string; effects: TextEffect[]; after_hash: string }): string {
  if (!Array.isArray(data.effects) || !effectsFit(data.effects, codePointLength(preimage))) {
    throw new ReplayDivergence(data.attempt_id, 'the recorded effects do not fit the text they apply to');
  }
  const text = applyEffects(preimage, data.effects);
  if (sha256Hex(text) !== data.after_hash) throw new ReplayDivergence(data.attempt_id, AFTER_HASH_MISMATCH);
  return text;
}
