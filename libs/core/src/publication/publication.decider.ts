import type { PublicationCommand } from './publication.commands';
import type { PublicationEvent } from './publication.events';
import type { ExistingJournal, JournalState, PublicationState } from './publication.state';

/**
 * The journal's decider. Its refusals are the caller's mistakes or lost races (an outcome recorded twice,
 * a journal started twice): the lease serializes publications of a directory, so a refusal here means
 * another process settled the journal first, and the caller re-reads it instead of writing.
 */

export type PublicationRefusalCode = 'journal_exists' | 'journal_not_found' | 'journal_not_open' | 'journal_not_pending';

export interface PublicationRefusal {
  code: PublicationRefusalCode;
  detail: string;
  state: JournalState | null;
}

export type PublicationDecision = { kind: 'accepted'; events: PublicationEvent[] } | { kind: 'refused'; refusal: PublicationRefusal };

const refused = (code: PublicationRefusalCode, detail: string, state: PublicationState): PublicationDecision => ({
  kind: 'refused',
  refusal: { code, detail, state: state.exists ? state.state : null },
});
const accepted = (event: PublicationEvent): PublicationDecision => ({ kind: 'accepted', events: [event] });

export function decide(command: PublicationCommand, state: PublicationState): PublicationDecision {
  if (command.type === 'StartPublication') {
    if (state.exists) return refused('journal_exists', `journal ${state.journal_id} was already started`, state);
    if (command.files.length === 0) throw new Error('a publication writes at least one file');
    const { type: _type, now, ...data } = command;
    return accepted({ type: 'PublicationStarted', data: { ...data, started_at: now } });
  }
  if (!state.exists) return refused('journal_not_found', 'no such journal', state);
  switch (command.type) {
    case 'CompletePublication':
      if (state.state !== 'started') return refused('journal_not_open', `journal ${state.journal_id} is ${state.state}`, state);
      return accepted({
        type: 'PublicationCompleted',
        data: { journal_id: state.journal_id, files: command.files, reconciled: command.reconciled, completed_at: command.now },
      });
    case 'FailPublication':
      if (state.state !== 'started') return refused('journal_not_open', `journal ${state.journal_id} is ${state.state}`, state);
      return accepted({
        type: 'PublicationFailed',
        data: {
          journal_id: state.journal_id,
          state: command.state,
          reason: command.reason,
          detail: command.detail,
          files: command.files,
          reconciled: command.reconciled,
          failed_at: command.now,
        },
      });
    case 'ResolvePublication':
      if (state.state !== 'pending_reconcile') return refused('journal_not_pending', `journal ${state.journal_id} is ${state.state}`, state);
      return accepted({
        type: 'PublicationResolved',
        data: { journal_id: state.journal_id, resolution: 'refreshed', target_id: command.target_id, attempt_id: command.attempt_id, resolved_at: command.now },
      });
  }
}

function requireJournal(state: PublicationState, type: string): ExistingJournal {
  if (!state.exists) throw new Error(`${type} on a publication stream without PublicationStarted`);
  return state;
}

export function evolve(state: PublicationState, event: PublicationEvent): PublicationState {
  switch (event.type) {
    case 'PublicationStarted': {
      const { started_at, ...d } = event.data;
      return { exists: true, ...d, state: 'started', started_at, finished_at: null, reason: null, detail: null, reconciled: false, installed: [], failed: [] };
    }
    case 'PublicationCompleted': {
      const j = requireJournal(state, event.type);
      return { ...j, state: 'committed', finished_at: event.data.completed_at, reconciled: event.data.reconciled, installed: event.data.files };
    }
    case 'PublicationFailed': {
      const j = requireJournal(state, event.type);
      const d = event.data;
      return { ...j, state: d.state, finished_at: d.failed_at, reason: d.reason, detail: d.detail, reconciled: d.reconciled, failed: d.files };
    }
    case 'PublicationResolved': {
      const j = requireJournal(state, event.type);
      return { ...j, state: 'resolved', finished_at: event.data.resolved_at };
    }
  }
}
