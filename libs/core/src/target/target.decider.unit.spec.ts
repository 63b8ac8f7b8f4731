import { eventsOf, given } from './test-support/decider-spec';
import { decide, evolve } from './target.decider';
import type { InitializeTarget, SaveCheckpoint, SubmitProposal } from './target.commands';
import type { TargetEvent } from './target.events';
import { initialTargetState } from './target.state';
import { requestFingerprint } from './request-identity';
import { sha256Hex } from '../text/sha256';

const T = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-11-30T00:00:00.000Z';
const H0 = 'b22ebf774cb2d9b12dc23d13ac860581d994ab579f4fb470b6f79d0b43a15ff2';

const init: InitializeTarget = {
  type: 'InitializeTarget',
  now: NOW,
  target_id: T,
  filename: 'doc.md',
  content: 'alpha beta alpha\r\n',
  content_type: 'text/markdown',
  project_id: null,
  editing_cycle_id: '22222222-2222-4222-8222-222222222222',
  snapshot_id: '33333333-3333-4333-8333-333333333333',
};
const initialized = eventsOf(decide(init, initialTargetState));

function submit(overrides: Partial<SubmitProposal> = {}): SubmitProposal {
  return {
    type: 'SubmitProposal',
    now: NOW,
    attempt_id: '44444444-4444-4444-8444-444444444444',
    target_id: T,
    protocol_version: 'patchdiff-tx/1',
    proposal: { intent: 'Rename alpha', edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }] },
    expected_target_version: 0,
    lookups: { keyed: null, parent: null },
    ...overrides,
  };
}

/** A decision that went through (not refused). */
function decided(command: Parameters<typeof decide>[0], state: Parameters<typeof decide>[1]) {
  const d = decide(command, state);
  if (d.kind !== 'decided') throw new Error(`refused: ${d.refusal.kind}`);
  return d;
}

const only = (events: TargetEvent[]) => {
  expect(events).toHaveLength(1);
  return events[0];
};

describe('InitializeTarget', () => {
  it('records canonical LF content and the CRLF source line endings (seed golden vector)', () => {
    const e = only(initialized);
    expect(e.type).toBe('TargetInitialized');
    if (e.type !== 'TargetInitialized') return;
    expect(e.data.content).toBe('alpha beta alpha\n');
    expect(e.data.current_hash).toBe(H0);
    expect(e.data.source_line_endings).toEqual({
      style: 'crlf', lf: 0, crlf: 1, cr: 0, normalized: true, source_code_points: 18, source_utf8_bytes: 18,
      source_sha256: '0e66cb5c23f7bce0964b5704e3a29a43ccb2b2c30589337b35c522560b1be0ad',
    });
  });

  it('refuses a second initialization of the same stream', () => {
    given(initialized).when(init).thenRefuses('target_exists');
  });

  it('refuses unstorable text (lone surrogate) without an event', () => {
    given([]).when({ ...init, content: 'a\ud800b' }).thenRefuses('unstorable_text', (r) => {
      expect(r.argument).toBe('content');
    });
  });
});

describe('SubmitProposal', () => {
  it('accepts the seed example: occurrence 2 of alpha → span 11–16, version 1', () => {
    given(initialized).when(submit()).then((events) => {
      const e = only(events);
      expect(e.type).toBe('ProposalAccepted');
      if (e.type !== 'ProposalAccepted') return;
      expect(e.data.before_version).toBe(0);
      expect(e.data.after_version).toBe(1);
      expect(e.data.before_hash).toBe(H0);
      expect(e.data.after_hash.slice(0, 8)).toBe('adf7157c');
      expect(e.data.runtime_version).toBe('patchdiff-mvp-0.2.2');
      expect(e.data.change_facts[0]).toMatchObject({
        change_id: 'chg_001', change_index: 1, span_start: 11, span_end: 16, matched_chars: 5, replacement_chars: 5,
      });
      expect(e.data.change_facts[0].matched_sha256.slice(0, 8)).toBe('8ed3f6ad');
      expect(e.data.change_facts[0].replacement_sha256.slice(0, 8)).toBe('be9d587d');
    });
  });

  it('rejects an unselected alpha as match_ambiguous with two exact candidates', () => {
    given(initialized)
      .when(submit({ proposal: { intent: 'x', edits: [{ match: 'alpha', replace: 'gamma' }] } }))
      .then((events) => {
        const e = only(events);
        if (e.type !== 'ProposalRejected') throw new Error(e.type);
        expect(e.data.failure_reason).toBe('match_ambiguous');
        expect(e.data.validation_stage).toBe('transaction_applicability');
        expect(e.data.retryable).toBe(true);
        expect(e.data.diagnostic).toMatchObject({ occurrence_count: 2, retryable: true, requires_new_submission: true });
      });
  });

  it('rejects a stale version guard at PRECONDITION_GUARD', () => {
    given(initialized).when(submit({ expected_target_version: 3 })).then((events) => {
      const e = only(events);
      if (e.type !== 'ProposalRejected') throw new Error(e.type);
      expect(e.data.failure_reason).toBe('target_version_mismatch');
      expect(e.data.validation_stage).toBe('PRECONDITION_GUARD');
    });
  });

  it('checks every supplied guard: right version, wrong hash → target_hash_mismatch', () => {
    given(initialized).when(submit({ expected_current_hash: 'f'.repeat(64) })).then((events) => {
      const e = only(events);
      expect(e.type === 'ProposalRejected' && e.data.failure_reason).toBe('target_hash_mismatch');
    });
  });

  it.each([
    ['no guard at all', { expected_target_version: undefined }, 'missing_guard'],
    ['a boolean version', { expected_target_version: true }, 'invalid_expected_target_version'],
    ['a fractional version', { expected_target_version: 1.5 }, 'invalid_expected_target_version'],
    ['a negative version', { expected_target_version: -1 }, 'invalid_expected_target_version'],
    ['an uppercase hash', { expected_current_hash: 'A'.repeat(64) }, 'invalid_expected_current_hash'],
    ['a malformed parent id', { parent_attempt_id: 'not-a-uuid' }, 'invalid_parent_attempt_id'],
    ['a zero attempt number', { regeneration_attempt: 0 }, 'invalid_attempt'],
    ['a request key with a control character', { client_request_id: 'a\tb' }, 'invalid_client_request_id'],
    ['a request key with a NUL', { client_request_id: 'a\u0000b' }, 'invalid_client_request_id'],
    ['a request key with a lone surrogate', { client_request_id: '\ud800' }, 'invalid_client_request_id'],
    ['a request key with a noncharacter', { client_request_id: 'k\ufffe' }, 'invalid_client_request_id'],
    ['a parent id with a NUL', { parent_attempt_id: '\u0000' }, 'invalid_parent_attempt_id'],
  ])('audits %s as context_invalid at PROTOCOL_VALIDATION', (_title, overrides, code) => {
    given(initialized).when(submit(overrides as Partial<SubmitProposal>)).then((events) => {
      const e = only(events);
      if (e.type !== 'ProposalRejected') throw new Error(e.type);
      expect(e.data.failure_reason).toBe('context_invalid');
      expect(e.data.validation_stage).toBe('PROTOCOL_VALIDATION');
      expect(e.data.diagnostic.code).toBe(code);
      expect(e.data.retryable).toBe(false);
    });
  });

  it('stores no request key that is not the seed syntax, only its ASCII-escaped preview', () => {
    given(initialized).when(submit({ client_request_id: 'req\u0000\ud800' })).then((events) => {
      const e = only(events);
      if (e.type !== 'ProposalRejected') throw new Error(e.type);
      expect(e.data.client_request_id).toBeNull();
      expect(e.data.diagnostic.submitted_key_preview).toBe('req\\u0000\\ud800');
    });
  });

  it('audits a malformed record (unknown field) as protocol_invalid', () => {
    given(initialized)
      .when(submit({ proposal: { intent: 'x', edits: [{ match: 'alpha', replace: 'g', occurence_index: 2 }] } }))
      .then((events) => {
        const e = only(events);
        if (e.type !== 'ProposalRejected') throw new Error(e.type);
        expect(e.data.failure_reason).toBe('protocol_invalid');
        expect(e.data.validation_stage).toBe('PROTOCOL_VALIDATION');
      });
  });

  it('audits a lone surrogate as target_encoding_invalid with reversible ASCII evidence', () => {
    given(initialized)
      .when(submit({ proposal: { intent: 'x', edits: [{ match: 'alpha', replace: 'g\udc00' }] }, client_request_id: 'k1' }))
      .then((events) => {
        const e = only(events);
        if (e.type !== 'ProposalRejected') throw new Error(e.type);
        expect(e.data.failure_reason).toBe('target_encoding_invalid');
        expect(e.data.client_request_id).toBeNull();
        expect(/^[\x20-\x7e]*$/.test(e.data.content)).toBe(true);
        expect(JSON.parse(e.data.content).proposal.edits[0].replace).toBe('g\udc00');
      });
  });

  it('recovers an identical keyed request without an event', () => {
    const first = only(eventsOf(decide(submit({ client_request_id: 'req-1' }), initialized.reduce(evolve, initialTargetState))));
    if (first.type !== 'ProposalAccepted') throw new Error(first.type);
    const keyed = {
      attempt_id: first.data.attempt_id,
      request_fingerprint: first.data.request_fingerprint,
      protocol_version: first.data.protocol_version,
      content: first.data.content,
      content_hash: first.data.content_hash,
      expected_target_version: 0,
      expected_current_hash: null,
      parent_attempt_id: null,
    };
    const state = [...initialized, first].reduce(evolve, initialTargetState);
    const again = decided(submit({ client_request_id: 'req-1', lookups: { keyed, parent: null } }), state);
    expect(again.events).toEqual([]);
    expect(again.recoveredAttemptId).toBe(first.data.attempt_id);

    const changed = decided(
      submit({
        client_request_id: 'req-1',
        proposal: { intent: 'Rename alpha', edits: [{ match: 'alpha', replace: 'delta', occurrence_index: 2 }] },
        lookups: { keyed, parent: null },
      }),
      state,
    );
    const conflict = only(changed.events);
    if (conflict.type !== 'ProposalRejected') throw new Error(conflict.type);
    expect(conflict.data.failure_reason).toBe('context_invalid');
    expect(conflict.data.validation_stage).toBe('PRECONDITION_GUARD');
    expect(conflict.data.client_request_id).toBeNull();
    expect(conflict.data.diagnostic).toMatchObject({
      code: 'request_key_conflict',
      existing_attempt_id: first.data.attempt_id,
      differing_components: ['attempt_content_hash'],
      differing_fields: ['edits[0].replace'],
    });
  });

  it('refuses an oversized replacement before admission, with no event', () => {
    given(initialized)
      .when(submit({ protocol_version: 'patchdiff-tx/3', proposal: { intent: 'big', replacement: 'a\r\n'.repeat(400_000) } }))
      .thenRefuses('replacement_too_large', (r) => {
        expect(r.limit.code).toBe('replacement_too_large');
        expect(r.limit.canonical_would_fit).toBe(true);
      });
  });

  it('refuses to decide for a target that does not exist', () => {
    given([]).when(submit()).thenRefuses('target_not_found', (r) => expect(r.target_id).toBe(T));
  });

  it('binds the fingerprint to the envelope', () => {
    const a = requestFingerprint({ protocol_version: 'p', attempt_content_hash: 'h', expected_target_version: 0, expected_current_hash: null, parent_attempt_id: null });
    const b = requestFingerprint({ protocol_version: 'p', attempt_content_hash: 'h', expected_target_version: 1, expected_current_hash: null, parent_attempt_id: null });
    expect(a).not.toBe(b);
  });
});

describe('SaveCheckpoint', () => {
  const save: SaveCheckpoint = {
    type: 'SaveCheckpoint',
    now: NOW,
    target_id: T,
    snapshot_id: '55555555-5555-4555-8555-555555555555',
    new_editing_cycle_id: '66666666-6666-4666-8666-666666666666',
    expected_target_version: 0,
  };

  it('rotates the editing cycle without touching the text', () => {
    const events = given(initialized).when(save).then((events) => {
      expect(only(events)).toMatchObject({
        type: 'CheckpointSaved',
        data: { closed_editing_cycle_id: init.editing_cycle_id, new_editing_cycle_id: save.new_editing_cycle_id, version: 0, current_hash: H0 },
      });
    });
    const state = [...initialized, ...events].reduce(evolve, initialTargetState);
    expect(state.exists && state.active_editing_cycle_id).toBe(save.new_editing_cycle_id);
    expect(state.exists && state.content).toBe('alpha beta alpha\n');
  });

  it('refuses a stale version without an event', () => {
    given(initialized).when({ ...save, expected_target_version: 9 }).thenRefuses('guard_stale', (r) => {
      expect(r.stale.failure_reason).toBe('target_version_mismatch');
    });
  });
});

describe('evolve', () => {
  it('re-applies an acceptance by its recorded profile (replay equals the live decision)', () => {
    const state0 = initialized.reduce(evolve, initialTargetState);
    const live = decided(submit(), state0);
    const replayed = live.events.reduce(evolve, state0);
    expect(replayed).toEqual(live.state);
    expect(replayed.exists && sha256Hex(replayed.content)).toBe(replayed.exists && replayed.current_hash);
  });
});

describe('InitializeTarget from a workspace file', () => {
  const workspace = { path: 'docs/doc.md', root_dev: '2049', root_ino: '2', file_dev: '2049', file_ino: '77', source_sha256: sha256Hex(init.content) };

  it('records WorkspaceFileBound after TargetInitialized, with the source line-ending style, and folds to the same state', () => {
    const events = eventsOf(decide({ ...init, workspace }, initialTargetState));
    expect(events.map((e) => e.type)).toEqual(['TargetInitialized', 'WorkspaceFileBound']);
    expect(events[1]!.data).toEqual({ target_id: T, ...workspace, source_line_ending_style: 'crlf', bound_at: NOW });
    expect(events.reduce(evolve, initialTargetState)).toEqual(initialized.reduce(evolve, initialTargetState));
  });

  it('a target from content records no binding', () => {
    expect(initialized.map((e) => e.type)).toEqual(['TargetInitialized']);
  });
});
