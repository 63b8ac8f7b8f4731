import { decide } from '@palimpsest/core/target/target.decider';
import { targetEventSchemaVersion, type TargetEvent } from '@palimpsest/core/target/target.events';
import { initialTargetState, type TargetState } from '@palimpsest/core/target/target.state';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { foldSearchDocument, keepLast, SEARCH_INTENT_CHARS, type SearchDocument } from './search-document';

const T = '11111111-1111-4111-8111-111111111111';
const NOW = '2026-12-01T00:00:00.000Z';
const uuid = (n: number) => `00000000-0000-4000-8000-${String(n).padStart(12, '0')}`;

function decided(state: TargetState, command: Parameters<typeof decide>[0]): { events: TargetEvent[]; state: TargetState } {
  const d = decide(command, state);
  if (d.kind !== 'decided') throw new Error('refused');
  return d;
}

const stored = (e: TargetEvent, i: number, v1 = false): StoredEvent => {
  const { effects: _effects, ...withoutEffects } = e.type === 'ProposalAccepted' ? e.data : { effects: null, ...e.data };
  return {
    globalPosition: 100 + i, streamId: `target-${T}`, streamVersion: i + 1, type: e.type,
    schemaVersion: v1 && e.type === 'ProposalAccepted' ? 1 : targetEventSchemaVersion(e.type),
    data: v1 && e.type === 'ProposalAccepted' ? withoutEffects : e.data, metadata: {}, recordedAt: NOW, transactionXid: '1',
  };
};

describe('the search document, folded from the log', () => {
  it('follows the text through effects (or, for version-1 rows, the effects their runtime derives) and keeps the latest intents', () => {
    let { events, state } = decided(initialTargetState, { type: 'InitializeTarget', now: NOW, target_id: T, filename: 'a.md', content: 'one 😀 two\n', content_type: 'text/markdown', project_id: null, editing_cycle_id: uuid(1), snapshot_id: uuid(2) });
    const all = [...events];
    for (const [i, [match, replace]] of [['one', 'ONE'], ['two', '𝄞 three'], ['😀', '']].entries()) {
      ({ events, state } = decided(state, { type: 'SubmitProposal', now: NOW, attempt_id: uuid(10 + i), target_id: T, protocol_version: 'patchdiff-tx/1', proposal: { intent: `intent ${i}`, edits: [{ match, replace }] }, expected_target_version: i, lookups: { keyed: null, parent: null } }));
      all.push(...events);
    }
    for (const v1 of [false, true]) {
      let doc: SearchDocument | null = null;
      all.forEach((e, i) => (doc = foldSearchDocument(doc, stored(e, i, v1))));
      expect(doc).toEqual({
        target_id: T, filename: 'a.md', path: null, intents: 'intent 0\nintent 1\nintent 2', body: state.exists ? state.content : null,
        version: 3, stream_version: 4, last_position: 103, updated_at: NOW,
      });
    }
  });

  it('keeps the most recent intents, in code points', () => {
    const doc: SearchDocument = { target_id: T, filename: 'a', path: null, intents: '😀'.repeat(SEARCH_INTENT_CHARS), body: 'x', version: 0, stream_version: 1, last_position: 1, updated_at: NOW };
    const { events } = decided({ exists: true, target_id: T, filename: 'a', content_type: 'text/plain', project_id: null, content: 'x', version: 0, current_hash: 'd'.repeat(64), active_editing_cycle_id: uuid(1), source_line_endings: null },
      { type: 'SubmitProposal', now: NOW, attempt_id: uuid(9), target_id: T, protocol_version: 'patchdiff-tx/3', proposal: { intent: 'last', replacement: 'y' }, expected_target_version: 0, lookups: { keyed: null, parent: null } });
    const next = foldSearchDocument(doc, { ...stored(events[0]!, 1) })!;
    expect(Array.from(next.intents)).toHaveLength(SEARCH_INTENT_CHARS);
    expect(next.intents.slice(-11)).toBe('😀😀😀\nlast');
    expect(next.body).toBe('y');
  });

  it('cuts to the last code points alike with and without surrogate pairs', () => {
    for (const text of ['', 'abc', 'abcdef', 'a😀b😀c', '😀😀😀😀', 'x'.repeat(20) + '😀', '😀' + 'y'.repeat(20), 'é\u0301ü']) {
      for (const max of [1, 2, 3, 5, 8, 30]) {
        const cps = Array.from(text);
        expect({ text, max, kept: keepLast(text, max) }).toEqual({ text, max, kept: cps.slice(Math.max(0, cps.length - max)).join('') });
      }
    }
  });
});
