import { deciderSpec } from '../test-support/decider-spec';
import type { StartPublication } from './publication.commands';
import { decide, evolve } from './publication.decider';
import type { PublicationEvent } from './publication.events';
import { initialPublicationState } from './publication.state';

const given = deciderSpec({
  decide,
  evolve,
  initialState: initialPublicationState,
  eventsOf: (d) => (d.kind === 'accepted' ? d.events : []),
  refusalOf: (d) => (d.kind === 'refused' ? d.refusal : null),
  replayed: () => false,
});

const NOW = '2026-12-01T10:00:00.000Z';
const file = {
  target_id: 't1',
  path: 'docs/a.md',
  target_version: 3,
  staged_sha256: 'b'.repeat(64),
  replaced_sha256: 'a'.repeat(64),
  bytes: 12,
  content_eol: 'lf' as const,
  stage_name: '.a.md.palimpsest-stage-j1',
  backup_name: null,
};
const start: StartPublication = {
  type: 'StartPublication',
  now: NOW,
  journal_id: 'j1',
  kind: 'save',
  request_id: null,
  candidate_id: null,
  root_dev: '1',
  root_ino: '2',
  files: [file],
};
const started: PublicationEvent = {
  type: 'PublicationStarted',
  data: { journal_id: 'j1', kind: 'save', request_id: null, candidate_id: null, root_dev: '1', root_ino: '2', files: [file], started_at: NOW },
};
const installed = { target_id: 't1', path: 'docs/a.md', disk_sha256: file.staged_sha256, bytes_written: 12, durability: 'confirmed' as const };
const completed: PublicationEvent = { type: 'PublicationCompleted', data: { journal_id: 'j1', files: [installed], reconciled: false, completed_at: NOW } };
const pending: PublicationEvent = {
  type: 'PublicationFailed',
  data: { journal_id: 'j1', state: 'pending_reconcile', reason: 'recovery_required', detail: 'x', files: [], reconciled: true, failed_at: NOW },
};

describe('the publication journal decider', () => {
  it('starts a journal once: the plan is recorded before any file is touched', () => {
    given([]).when(start).then(() => [started]);
    expect(given([started]).when(start).thenRefuses().refusal.code).toBe('journal_exists');
  });

  it('records exactly one outcome of a started journal', () => {
    const done = { type: 'CompletePublication' as const, now: NOW, files: [installed], reconciled: false };
    given([started]).when(done).then(() => [completed]);
    expect(given([started, completed]).when(done).thenRefuses().refusal).toEqual({ code: 'journal_not_open', detail: 'journal j1 is committed', state: 'committed' });
    const fail = { type: 'FailPublication' as const, now: NOW, state: 'rolled_back' as const, reason: 'external_disk_drift' as const, detail: 'd', files: [], reconciled: false };
    expect(given([started, completed]).when(fail).thenRefuses().refusal.code).toBe('journal_not_open');
    const after = given([started]).when(fail);
    after.then((events) => expect(events.map((e) => e.type)).toEqual(['PublicationFailed']));
    expect(after.next()).toMatchObject({ state: 'rolled_back', reason: 'external_disk_drift', finished_at: NOW });
  });

  it('resolves only a pending_reconcile journal', () => {
    const resolve = { type: 'ResolvePublication' as const, now: NOW, target_id: 't1', attempt_id: 'a1' };
    given([started, pending]).when(resolve).then(() => [
      { type: 'PublicationResolved', data: { journal_id: 'j1', resolution: 'refreshed', target_id: 't1', attempt_id: 'a1', resolved_at: NOW } },
    ]);
    expect(given([started]).when(resolve).thenRefuses().refusal.code).toBe('journal_not_pending');
    expect(given([]).when(resolve).thenRefuses().refusal.code).toBe('journal_not_found');
  });

  it('evolves the plan and the installed files into the state', () => {
    const state = [started, completed].reduce(evolve, initialPublicationState);
    expect(state).toMatchObject({ exists: true, state: 'committed', files: [file], installed: [installed], reconciled: false });
  });
});
