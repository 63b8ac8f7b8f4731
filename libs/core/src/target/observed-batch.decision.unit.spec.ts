import { sha256Hex } from '../text/sha256';
import { OBSERVED_BATCH_PROFILE } from '../transaction/observed-batch';
import { ObservedReplayEvidence } from './observed-replay';
import { decide, evolve, ReplayDivergence } from './target.decider';
import type { BatchLookup, BatchObservation, InitializeTarget, SubmitObservedBatch } from './target.commands';
import type { BundleObservedData, ProposalAcceptedData, TargetEvent } from './target.events';
import { initialTargetState, type ExistingTarget } from './target.state';
import { eventsOf } from './test-support/decider-spec';

const T = '11111111-1111-4111-8111-111111111111';
const CYCLE = '22222222-2222-4222-8222-222222222222';
const BUNDLE = '66666666-6666-4666-8666-666666666666';
const OBS = ['44444444-4444-4444-8444-000000000001', '44444444-4444-4444-8444-000000000002'];
const NOW = '2026-12-01T00:00:00.000Z';
const TEXT = 'function f() {\n  return 1;\n}\nfunction g() {\n  return 2;\n}\n';
const BOUNDS = [[0, TEXT.indexOf('}') + 1], [TEXT.indexOf('function g'), TEXT.lastIndexOf('}') + 1]] as const;
const init: InitializeTarget = { type: 'InitializeTarget', now: NOW, target_id: T, filename: 'a.ts', content: TEXT, content_type: 'text/typescript', project_id: null, editing_cycle_id: CYCLE, snapshot_id: '33333333-3333-4333-8333-333333333333' };
const initialized = eventsOf(decide(init, initialTargetState));
const target = initialized.reduce(evolve, initialTargetState) as ExistingTarget;

const observation = (i: number, over: Partial<BatchObservation> = {}): BatchObservation => ({
  observation_id: OBS[i]!, target_id: T, editing_cycle_id: CYCLE, target_version: 0, target_hash: sha256Hex(TEXT),
  scope_start: BOUNDS[i]![0], scope_end: BOUNDS[i]![1], observed_scope_hash: sha256Hex(TEXT.slice(BOUNDS[i]![0], BOUNDS[i]![1])),
  consumed_attempt_id: null, bundle_id: BUNDLE, ordinal: i + 1, ...over,
});
const lookup = (found = [observation(0), observation(1)], reverified = true): BatchLookup => ({
  bundle_known: true, found: Object.fromEntries(found.map((o) => [o.observation_id, o])), reverified: Object.fromEntries(found.map((o) => [o.observation_id, reverified])),
});
const groups = [
  { observation_id: OBS[1], operations: [{ op: 'match', match: '2', replace: '22' }] },
  { observation_id: OBS[0], operations: [{ op: 'match', match: 'return 1', replace: 'return 11' }] },
];
const submit = (batch: BatchLookup, extra: Partial<SubmitObservedBatch> = {}): SubmitObservedBatch => ({
  type: 'SubmitObservedBatch', now: NOW, attempt_id: '55555555-5555-4555-8555-555555555555', target_id: T, protocol_version: 'patchdiff-tx/2',
  proposal: { intent: 'i', observation_bundle_id: BUNDLE, groups }, expected_target_version: 0, expected_current_hash: sha256Hex(TEXT),
  client_request_id: 'k', lookups: { keyed: null, parent: null }, batch, ...extra,
});
const onlyEvent = (cmd: SubmitObservedBatch) => eventsOf(decide(cmd, target))[0]!;

describe('observed batch (target decider)', () => {
  it('accepts as one step under the batch runtime; the record links every group with its bundle and ordinal; replay checks them', () => {
    const event = onlyEvent(submit(lookup()));
    expect(event).toMatchObject({ type: 'ProposalAccepted', data: { protocol_version: 'patchdiff-tx/2', runtime_version: OBSERVED_BATCH_PROFILE.runtime, before_version: 0, after_version: 1 } });
    const record = JSON.parse((event.data as ProposalAcceptedData).content);
    expect(record.groups.map((g: any) => [g.observation.observation_id, g.observation.ordinal])).toEqual([[OBS[1], 2], [OBS[0], 1]]);
    const bundle: BundleObservedData = {
      target_id: T, editing_cycle_id: CYCLE, target_version: 0, target_hash: sha256Hex(TEXT), language: 'typescript', engine: 'e', observed_at: NOW, bundle_id: BUNDLE,
      scopes: [0, 1].map((i) => { const { consumed_attempt_id: _c, bundle_id: _b, ...o } = observation(i); return { ...o, ordinal: i + 1, selector: { symbol_name: 'x', kind: null }, symbol: { name: 'x', kind: 'function', parent: null } }; }),
    };
    const replay = (events: TargetEvent[]) => {
      const evidence = new ObservedReplayEvidence();
      return events.reduce((state, e) => (evidence.check(e, state), evolve(state, e)), initialTargetState);
    };
    const accepted = replay([...initialized, { type: 'BundleObserved', data: bundle }, event]);
    expect(accepted.exists && accepted.content).toBe(TEXT.replace('return 1', 'return 11').replace('return 2', 'return 22'));
    const swapped = { ...bundle, scopes: bundle.scopes.map((s) => ({ ...s, ordinal: 3 - s.ordinal })) };
    expect(() => replay([...initialized, { type: 'BundleObserved', data: swapped }, event])).toThrow(ReplayDivergence);
  });

  it('what an observation is (here consumed, group 1) is refused before any group is stale (group 0)', () => {
    const cmd = submit(lookup([observation(0, { consumed_attempt_id: OBS[0] }), observation(1, { target_version: 9 })]));
    expect(onlyEvent(cmd)).toMatchObject({ type: 'ProposalRejected', data: { diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED', group_index: 1 } } });
  });

  it('a scope the engine no longer names is STALE_OBSERVATION_HASH; a key that was used answers before everything', () => {
    expect(onlyEvent(submit(lookup(undefined, false)))).toMatchObject({ type: 'ProposalRejected', data: { failure_reason: 'target_hash_mismatch', diagnostic: { code: 'STALE_OBSERVATION_HASH', group_index: 0 } } });
    const first = onlyEvent(submit(lookup())).data as ProposalAcceptedData;
    const keyed = { attempt_id: first.attempt_id, request_fingerprint: first.request_fingerprint, protocol_version: first.protocol_version, content: first.content, content_hash: first.content_hash, expected_target_version: 0, expected_current_hash: sha256Hex(TEXT), parent_attempt_id: null };
    const outcome = decide(submit(lookup([observation(0, { consumed_attempt_id: first.attempt_id }), observation(1, { consumed_attempt_id: first.attempt_id })]), { lookups: { keyed, parent: null } }), target);
    expect(outcome).toMatchObject({ kind: 'decided', events: [], recoveredAttemptId: first.attempt_id });
  });
});
