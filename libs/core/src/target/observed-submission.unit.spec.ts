import { sha256Hex } from '../text/sha256';
import { OBSERVED_PROFILE, type ObservationLink } from '../transaction/observed-scope';
import { ReplayCheck } from './replay-check';
import { decide, evolve, ReplayDivergence } from './target.decider';
import type { InitializeTarget, ObservedLookup, SubmitObservedProposal } from './target.commands';
import type { ProposalAcceptedData, ScopeObservedData, TargetEvent } from './target.events';
import { initialTargetState, type ExistingTarget } from './target.state';
import { eventsOf } from './test-support/decider-spec';

const T = '11111111-1111-4111-8111-111111111111';
const CYCLE = '22222222-2222-4222-8222-222222222222';
const OBS = '44444444-4444-4444-8444-444444444444';
const NOW = '2026-12-01T00:00:00.000Z';
const TEXT = 'head\nfunction f() {\n  return 1;\n}\ntail\n';
const START = TEXT.indexOf('function');
const END = TEXT.indexOf('}') + 1;
const init: InitializeTarget = { type: 'InitializeTarget', now: NOW, target_id: T, filename: 'a.ts', content: TEXT, content_type: 'text/typescript', project_id: null, editing_cycle_id: CYCLE, snapshot_id: '33333333-3333-4333-8333-333333333333' };
const initialized = eventsOf(decide(init, initialTargetState));
const target = initialized.reduce(evolve, initialTargetState) as ExistingTarget;

const link: ObservationLink = { observation_id: OBS, target_id: T, editing_cycle_id: CYCLE, target_version: 0, target_hash: sha256Hex(TEXT), scope_start: START, scope_end: END, observed_scope_hash: sha256Hex(TEXT.slice(START, END)) };
const observation: ScopeObservedData = { ...link, language: 'typescript', engine: 'palimpsest-structure@1', observed_at: NOW, selector: { symbol_name: 'f', kind: null }, symbol: { name: 'f', kind: 'function', parent: null } };
const lookup = (found: Partial<ObservationLink & { consumed_attempt_id: string }> | null = {}, reverified = true): ObservedLookup => ({ observation_id: OBS, found: found === null ? null : { ...link, consumed_attempt_id: null, ...found }, reverified });
const span = (needle: string, replace: string) => ({ op: 'span', start: TEXT.indexOf(needle), end: TEXT.indexOf(needle) + needle.length, expected_text: needle, replace });

const submit = (observed: ObservedLookup, operations: unknown[] = [span('return 1', 'return 2')]): SubmitObservedProposal => ({
  type: 'SubmitObservedProposal', now: NOW, attempt_id: '55555555-5555-4555-8555-555555555555', target_id: T, protocol_version: 'patchdiff-tx/2',
  proposal: { intent: 'i', operations }, expected_target_version: 0, expected_current_hash: sha256Hex(TEXT), lookups: { keyed: null, parent: null }, observed,
});

const onlyEvent = (cmd: SubmitObservedProposal) => eventsOf(decide(cmd, target))[0]!;

describe('observed submission (target decider)', () => {
  it('accepts an in-scope change under the observed runtime, the record carrying every link', () => {
    const event = onlyEvent(submit(lookup()));
    expect(event).toMatchObject({ type: 'ProposalAccepted', data: { protocol_version: 'patchdiff-tx/2', runtime_version: OBSERVED_PROFILE.runtime, after_version: 1 } });
    expect(JSON.parse((event.data as ProposalAcceptedData).content).observation).toEqual(link);
  });

  it('an observation whose hash no longer matches, or whose scope the engine no longer names, is STALE_OBSERVATION_HASH', () => {
    for (const cmd of [submit(lookup({ target_hash: '0'.repeat(64) })), submit(lookup({}, false))]) {
      expect(onlyEvent(cmd)).toMatchObject({ type: 'ProposalRejected', data: { failure_reason: 'target_hash_mismatch', diagnostic: { code: 'STALE_OBSERVATION_HASH' } } });
    }
  });

  it('a node guard: the same version accepts; another, none at the scope, or an unbound target is node_version_mismatch, after the observation checks', () => {
    const V = 'a'.repeat(64);
    const guard = (current: string | null, path: string | null = 'a.ts', node_id: string | null = 'function:a.ts#f') => ({ expected_node_version: V, path, node_id, current_node_version: current });
    expect(onlyEvent(submit({ ...lookup(), node_guard: guard(V) }))).toMatchObject({ type: 'ProposalAccepted' });
    const moved = onlyEvent(submit({ ...lookup(), node_guard: guard('b'.repeat(64)) }));
    expect(moved).toMatchObject({ type: 'ProposalRejected', data: { failure_reason: 'target_hash_mismatch', validation_stage: 'PRECONDITION_GUARD', diagnostic: { code: 'node_version_mismatch', node_id: 'function:a.ts#f', expected_node_version: V, current_node_version: 'b'.repeat(64) } } });
    expect(onlyEvent(submit({ ...lookup(), node_guard: guard(null, 'a.ts', null) }))).toMatchObject({ data: { failure_reason: 'target_hash_mismatch', diagnostic: { code: 'node_version_mismatch', node_id: null } } });
    expect(onlyEvent(submit({ ...lookup(), node_guard: guard(null, null, null) }))).toMatchObject({ data: { failure_reason: 'context_invalid', diagnostic: { code: 'node_version_mismatch', path: null } } });
    expect(onlyEvent(submit({ ...lookup({}, false), node_guard: guard(null) }))).toMatchObject({ data: { diagnostic: { code: 'STALE_OBSERVATION_HASH' } } });
    expect(onlyEvent(submit({ ...lookup(), node_guard: { ...guard(V), expected_node_version: 'V1' } }))).toMatchObject({ data: { failure_reason: 'context_invalid', validation_stage: 'PROTOCOL_VALIDATION', diagnostic: { code: 'invalid_node_version' } } });
  });

  it('a consumed observation is refused before its version is compared', () => {
    const cmd = submit(lookup({ target_version: 7, consumed_attempt_id: OBS }));
    expect(onlyEvent(cmd)).toMatchObject({ type: 'ProposalRejected', data: { diagnostic: { code: 'OBSERVATION_ALREADY_CONSUMED' } } });
  });
});

describe('observed replay evidence (no engine)', () => {
  const accepted = onlyEvent(submit(lookup())) as Extract<TargetEvent, { type: 'ProposalAccepted' }>;
  const scopeObserved: TargetEvent = { type: 'ScopeObserved', data: observation };
  const fold = (events: TargetEvent[]) => {
    const evidence = new ReplayCheck();
    let state = initialTargetState;
    for (const e of [...initialized, ...events]) {
      evidence.check(e, state);
      state = evolve(state, e);
    }
    return state;
  };
  const divergence = (events: TargetEvent[]) => {
    try {
      fold(events);
    } catch (err) {
      if (err instanceof ReplayDivergence) return err.reason;
      throw err;
    }
    return null;
  };
  const withRecord = (patch: (r: Record<string, any>) => void): TargetEvent => {
    const record = JSON.parse(accepted.data.content);
    patch(record);
    return { type: 'ProposalAccepted', data: { ...accepted.data, content: JSON.stringify(record) } };
  };

  it('replays an acceptance whose links all match', () => {
    expect(fold([scopeObserved, accepted])).toMatchObject({ version: 1, content: TEXT.replace('return 1', 'return 2') });
  });

  it('fails as protocol_invalid when evidence is missing or altered', () => {
    const altered: ScopeObservedData = { ...observation, observed_scope_hash: '0'.repeat(64) };
    expect(divergence([accepted])).toMatch(/^protocol_invalid: .*0 recorded observations/);
    expect(divergence([{ type: 'ScopeObserved', data: altered }, accepted])).toMatch(/^protocol_invalid: .*observed_scope_hash/);
    expect(divergence([scopeObserved, withRecord((r) => delete r.observation)])).toMatch(/^protocol_invalid: .*no complete observation link/);
    expect(divergence([scopeObserved, withRecord((r) => (r.observation.scope_end -= 1))])).toMatch(/^protocol_invalid: .*scope_end/);
    const second = { ...accepted, data: { ...accepted.data, before_version: 1 } } as TargetEvent;
    expect(divergence([scopeObserved, accepted, second])).toMatch(/^protocol_invalid: .*reuses/);
  });

  it('the buffer must hold the recorded scope: a record consistent with a forged observation still fails on its scope hash', () => {
    const forged = { ...link, observed_scope_hash: '0'.repeat(64) };
    const events: TargetEvent[] = [{ type: 'ScopeObserved', data: { ...observation, ...forged } }, withRecord((r) => (r.observation = forged))];
    expect(divergence(events)).toMatch(/^protocol_invalid: Observed evidence is missing or altered: the observed scope hash/);
  });
});
