import { evolve } from './publication.decider';
import type { PlannedFile, PublicationKind } from './publication.events';
import { initialPublicationState, type ExistingJournal } from './publication.state';
import { planRecovery } from './recovery-plan';

const [OLD, NEW, OTHER] = ['a', 'b', 'c'].map((c) => c.repeat(64));
const planned = (i: number, replaced: string | null): PlannedFile => ({
  target_id: `t${i}`,
  path: `f${i}.md`,
  target_version: 1,
  staged_sha256: NEW,
  replaced_sha256: replaced,
  bytes: 5,
  content_eol: 'lf',
  stage_name: `.f${i}.stage`,
  backup_name: replaced ? `.f${i}.backup` : null,
});

function journal(kind: PublicationKind, files: PlannedFile[]): ExistingJournal {
  const s = evolve(initialPublicationState, {
    type: 'PublicationStarted',
    data: { journal_id: 'j', kind, request_id: null, candidate_id: null, root_dev: '1', root_ino: '2', files, started_at: 'T' },
  });
  if (!s.exists) throw new Error('no journal');
  return s;
}
const disk = (disk_sha256: string | null, extra: { stage?: boolean; backup?: boolean } = {}) => ({
  disk_sha256,
  stage_present: extra.stage ?? false,
  backup_present: extra.backup ?? false,
});

describe('settling an interrupted publication from the bytes on disk', () => {
  it('a save whose file holds the staged bytes is completed, its durability confirmed again', () => {
    const plan = planRecovery(journal('save', [planned(0, OLD)]), [disk(NEW)]);
    expect(plan.actions).toEqual([{ kind: 'confirm_durability', file: 0 }]);
    expect(plan.outcome).toMatchObject({ type: 'CompletePublication', reconciled: true, files: [{ disk_sha256: NEW, durability: 'confirmed' }] });
  });

  it('a save interrupted before installing is not applied; its staged file is removed', () => {
    const plan = planRecovery(journal('save', [planned(0, OLD)]), [disk(OLD, { stage: true })]);
    expect(plan.actions).toEqual([{ kind: 'remove_stage', file: 0 }]);
    expect(plan.outcome).toMatchObject({ type: 'FailPublication', state: 'rolled_back', reason: 'interrupted', files: [{ outcome: 'not_applied' }] });
  });

  it('anything else is pending_reconcile: the file is never touched, its evidence reported', () => {
    const plan = planRecovery(journal('save', [planned(0, OLD)]), [disk(OTHER)]);
    expect(plan.actions).toEqual([]);
    expect(plan.outcome).toMatchObject({ state: 'pending_reconcile', reason: 'recovery_required', files: [{ disk_sha256: OTHER, outcome: 'unknown' }] });
  });

  it('an apply is rolled back file by file: backups restored, created files removed, untouched files left', () => {
    const plan = planRecovery(journal('apply', [planned(0, OLD), planned(1, null), planned(2, OLD)]), [
      disk(NEW, { backup: true }),
      disk(NEW),
      disk(OLD, { backup: true, stage: true }),
    ]);
    expect(plan.actions).toEqual([
      { kind: 'remove_stage', file: 2 },
      { kind: 'restore_backup', file: 0 },
      { kind: 'remove_created', file: 1 },
      { kind: 'remove_backup', file: 2 },
    ]);
    expect(plan.outcome).toMatchObject({
      type: 'FailPublication',
      state: 'rolled_back',
      files: [
        { outcome: 'restored', disk_sha256: OLD },
        { outcome: 'restored', disk_sha256: null },
        { outcome: 'not_applied', disk_sha256: OLD },
      ],
    });
  });

  it('a file-tool write is rolled back like an apply: its accepted change never committed', () => {
    const plan = planRecovery(journal('write', [planned(0, OLD), planned(1, null)]), [disk(NEW, { backup: true }), disk(NEW)]);
    expect(plan.actions).toEqual([
      { kind: 'restore_backup', file: 0 },
      { kind: 'remove_created', file: 1 },
    ]);
    expect(plan.outcome).toMatchObject({ type: 'FailPublication', state: 'rolled_back', reason: 'interrupted' });
  });

  it('an apply file holding other bytes, or staged bytes without a backup, leaves the journal pending and keeps the backups', () => {
    const plan = planRecovery(journal('apply', [planned(0, OLD), planned(1, OLD)]), [disk(OTHER, { backup: true }), disk(NEW)]);
    expect(plan.actions).toEqual([]);
    expect(plan.outcome).toMatchObject({ state: 'pending_reconcile', files: [{ outcome: 'unknown' }, { outcome: 'unknown' }] });
  });

  it('a creating save interrupted before its link is not applied (the file is still absent)', () => {
    expect(planRecovery(journal('save', [planned(0, null)]), [disk(null, { stage: true })]).outcome).toMatchObject({
      state: 'rolled_back',
      files: [{ outcome: 'not_applied', disk_sha256: null }],
    });
  });
});
