import { sha256Hex } from '../text/sha256';
import { decide, evolve, ObservationStateMismatch } from './target.decider';
import type { InitializeTarget, RecordObservation } from './target.commands';
import type { ScopeObservedData } from './target.events';
import { initialTargetState, type ExistingTarget } from './target.state';
import { eventsOf } from './test-support/decider-spec';

const T = '11111111-1111-4111-8111-111111111111';
const CYCLE = '22222222-2222-4222-8222-222222222222';
const NOW = '2026-12-01T00:00:00.000Z';
const init: InitializeTarget = { type: 'InitializeTarget', now: NOW, target_id: T, filename: 'a.md', content: '# A\n', content_type: 'text/markdown', project_id: null, editing_cycle_id: CYCLE, snapshot_id: '33333333-3333-4333-8333-333333333333' };
const target = eventsOf(decide(init, initialTargetState)).reduce(evolve, initialTargetState) as ExistingTarget;

const observed = (overrides: Partial<ScopeObservedData> = {}): RecordObservation => ({
  type: 'RecordObservation',
  now: NOW,
  target_id: T,
  observation: {
    type: 'ScopeObserved',
    data: {
      target_id: T, editing_cycle_id: CYCLE, target_version: 0, target_hash: sha256Hex('# A\n'), language: 'markdown', engine: 'palimpsest-structure@1',
      observed_at: NOW, observation_id: '44444444-4444-4444-8444-444444444444', selector: { symbol_name: 'A', kind: null },
      symbol: { name: 'A', kind: 'section', parent: null }, scope_start: 0, scope_end: 3, observed_scope_hash: sha256Hex('# A'), ...overrides,
    },
  },
});

describe('RecordObservation (target decider)', () => {
  it('records the observation made on the state it is decided on, and changes nothing', () => {
    const d = decide(observed(), target);
    expect(eventsOf(d).map((e) => e.type)).toEqual(['ScopeObserved']);
    expect(d.kind === 'decided' && d.state).toEqual(target);
    expect(evolve(target, eventsOf(d)[0]!)).toEqual(target);
  });

  it('an observation of another version, hash or cycle is a bug of the caller, never recorded', () => {
    expect(() => decide(observed({ target_version: 1 }), target)).toThrow(ObservationStateMismatch);
    expect(() => decide(observed({ target_hash: '0'.repeat(64) }), target)).toThrow(ObservationStateMismatch);
    expect(() => decide(observed({ editing_cycle_id: '55555555-5555-4555-8555-555555555555' }), target)).toThrow(ObservationStateMismatch);
  });

  it('refuses an unknown target', () => {
    expect(decide(observed(), initialTargetState)).toMatchObject({ kind: 'refused', refusal: { kind: 'target_not_found' } });
  });
});
