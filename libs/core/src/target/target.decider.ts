import { canonicalizeUpload } from '../text/canonical-text';
import { findUnstorableText } from '../text/encoding';
import { sha256Hex } from '../text/sha256';
import { applyProposal } from '../transaction/apply-proposal';
import { CommandRefused } from './command-refused';
import { checkGuardsAgainst, checkGuardSyntax, isNonNegativeInteger } from './guards';
import { decideSubmission, type NearMissSource } from './submit-proposal.decision';
import type { InitializeTarget, SaveCheckpoint, TargetCommand } from './target.commands';
import type { TargetEvent } from './target.events';
import type { TextChange } from '../transaction/transaction.types';
import type { ExistingTarget, TargetState } from './target.state';

export class TargetNotFound extends Error {
  constructor(readonly targetId: string) {
    super(`target ${targetId} does not exist`);
  }
}

export class TargetAlreadyExists extends Error {
  constructor(readonly targetId: string) {
    super(`target ${targetId} already exists`);
  }
}

/** Replay found a recorded acceptance that does not reproduce: report, never repair. */
export class ReplayDivergence extends Error {
  constructor(readonly attemptId: string, readonly reason: string) {
    super(`attempt ${attemptId} does not replay: ${reason}`);
  }
}

export interface Evaluation {
  events: TargetEvent[];
  state: TargetState;
  recoveredAttemptId: string | null;
  /** For storage: which ends of the text an acceptance left untouched (null when unknown). */
  textChange: TextChange | null;
  /** For a match_absent rejection: what the response-only near-miss scan reads. */
  nearMissSource?: NearMissSource | null;
}

function requireTarget(state: TargetState, targetId: string): ExistingTarget {
  if (!state.exists) throw new TargetNotFound(targetId);
  return state;
}

function initialize(cmd: InitializeTarget, state: TargetState): TargetEvent[] {
  if (state.exists) throw new TargetAlreadyExists(cmd.target_id);
  const bad = findUnstorableText({ filename: cmd.filename, content: cmd.content, content_type: cmd.content_type });
  if (bad) {
    throw new CommandRefused({
      status: 'invalid_argument',
      code: 'invalid_text_encoding',
      argument: bad.replace(/^\$\./, '').split(/[.[]/)[0],
      failure_detail: 'Text must be valid UTF-8 without NUL characters or unpaired surrogates.',
    });
  }
  const upload = canonicalizeUpload(cmd.content);
  return [
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
}

function save(cmd: SaveCheckpoint, target: ExistingTarget): TargetEvent[] {
  const syntax = checkSaveGuardSyntax(cmd);
  if (syntax) {
    throw new CommandRefused({
      status: 'rejected',
      target_file_id: target.target_id,
      failure_reason: 'context_invalid',
      failure_detail: syntax.detail,
      diagnostic: { code: syntax.code, argument: syntax.argument, retryable: false },
      current_version: target.version,
      current_hash: target.current_hash,
    });
  }
  const version = isNonNegativeInteger(cmd.expected_target_version) ? cmd.expected_target_version : null;
  const hash = typeof cmd.expected_current_hash === 'string' ? cmd.expected_current_hash : null;
  const stale = checkGuardsAgainst(version, hash, target);
  if (stale) {
    throw new CommandRefused({
      status: 'rejected',
      target_file_id: target.target_id,
      failure_reason: stale.failure_reason,
      failure_detail: stale.detail,
      diagnostic: { code: stale.failure_reason, retryable: true },
      current_version: target.version,
      current_hash: target.current_hash,
    });
  }
  return [
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
}

/** Save guards are optional; when supplied they must be well-formed. */
function checkSaveGuardSyntax(cmd: SaveCheckpoint) {
  const v = cmd.expected_target_version;
  const h = cmd.expected_current_hash;
  if ((v === undefined || v === null) && (h === undefined || h === null)) return null;
  return checkGuardSyntax(v, h);
}

/** Evaluate a command once: the events it decides and the state they lead to. */
export function evaluate(command: TargetCommand, state: TargetState): Evaluation {
  switch (command.type) {
    case 'InitializeTarget': {
      const events = initialize(command, state);
      return { events, state: events.reduce(evolve, state), recoveredAttemptId: null, textChange: null };
    }
    case 'SaveCheckpoint': {
      const events = save(command, requireTarget(state, command.target_id));
      return { events, state: events.reduce(evolve, state), recoveredAttemptId: null, textChange: null };
    }
    case 'SubmitProposal': {
      const target = requireTarget(state, command.target_id);
      const d = decideSubmission(command, target);
      const next: TargetState =
        d.nextContent === null
          ? target
          : afterAcceptance(target, d.events[0] as Extract<TargetEvent, { type: 'ProposalAccepted' }>, d.nextContent);
      return {
        events: d.events,
        state: next,
        recoveredAttemptId: d.recoveredAttemptId,
        textChange: d.textChange,
        nearMissSource: d.nearMissSource ?? null,
      };
    }
  }
}

export function decide(command: TargetCommand, state: TargetState): TargetEvent[] {
  return evaluate(command, state).events;
}

function afterAcceptance(
  target: ExistingTarget,
  event: Extract<TargetEvent, { type: 'ProposalAccepted' }>,
  content: string,
): ExistingTarget {
  return { ...target, content, version: event.data.after_version, current_hash: event.data.after_hash };
}

/**
 * Fold one event. An acceptance is re-applied through the recorded (protocol, runtime) profile,
 * so evolve is also the replay step; a record that no longer reproduces its hash throws.
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
      const content = replayAcceptance(target.content, event.data);
      return afterAcceptance(target, event, content);
    }
    case 'ProposalRejected':
      return state;
    case 'CheckpointSaved': {
      const target = requireTarget(state, event.data.target_id);
      return { ...target, active_editing_cycle_id: event.data.new_editing_cycle_id };
    }
  }
}

export function replayAcceptance(
  content: string,
  data: { attempt_id: string; protocol_version: string | null; runtime_version: string | null; content: string; after_hash: string },
): string {
  let record: Record<string, unknown>;
  try {
    record = JSON.parse(data.content);
  } catch {
    throw new ReplayDivergence(data.attempt_id, 'stored record is not JSON');
  }
  const result = applyProposal(
    { protocol_version: String(data.protocol_version), runtime_version: String(data.runtime_version), record },
    content,
  );
  if (!result.ok) throw new ReplayDivergence(data.attempt_id, `${result.failure_reason}: ${result.failure_detail}`);
  if (sha256Hex(result.text) !== data.after_hash) {
    throw new ReplayDivergence(data.attempt_id, 'reconstructed text does not match the recorded after_hash');
  }
  return result.text;
}
