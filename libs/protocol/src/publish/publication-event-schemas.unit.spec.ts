import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { decide, evolve } from '@palimpsest/core/publication/publication.decider';
import type { PublicationCommand } from '@palimpsest/core/publication/publication.commands';
import { PUBLICATION_EVENT_TYPES, type PublicationEvent } from '@palimpsest/core/publication/publication.events';
import { initialPublicationState } from '@palimpsest/core/publication/publication.state';
import { EVENT_SCHEMAS } from './event-schemas';

const NOW = '2026-12-01T10:00:00.000Z';
const J = ['0b6c2b44-7f63-4c1e-9a57-5f1f3c0b1a01', '0b6c2b44-7f63-4c1e-9a57-5f1f3c0b1a02'];
const T = '6f1d0c9e-2b7a-4f55-8f3e-1c2d3e4f5a6b';
const [OLD, NEW] = ['a', 'b'].map((c) => c.repeat(64));

const start = (journal_id: string): PublicationCommand => ({
  type: 'StartPublication',
  now: NOW,
  journal_id,
  kind: 'apply',
  request_id: 'apply-1',
  candidate_id: T,
  root_dev: '2049',
  root_ino: '131073',
  files: [{ target_id: T, path: 'docs/a.md', target_version: 2, staged_sha256: NEW, replaced_sha256: OLD, bytes: 9, content_eol: 'crlf', stage_name: '.a.md.stage', backup_name: '.a.md.backup' }],
});

function run(commands: PublicationCommand[]): PublicationEvent[] {
  const events: PublicationEvent[] = [];
  let state = initialPublicationState;
  for (const c of commands) {
    const d = decide(c, state);
    if (d.kind === 'refused') throw new Error(d.refusal.code);
    events.push(...d.events);
    state = d.events.reduce(evolve, state);
  }
  return events;
}

describe('publication event schemas', () => {
  it('every decided journal event validates against its published schema', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const events = [
      ...run([start(J[0]), { type: 'CompletePublication', now: NOW, files: [{ target_id: T, path: 'docs/a.md', disk_sha256: NEW, bytes_written: 9, durability: 'confirmed' }], reconciled: false }]),
      ...run([
        start(J[1]),
        { type: 'FailPublication', now: NOW, state: 'pending_reconcile', reason: 'recovery_required', detail: 'd', files: [{ target_id: T, path: 'docs/a.md', disk_sha256: null, outcome: 'unknown' }], reconciled: true },
        { type: 'ResolvePublication', now: NOW, target_id: T, attempt_id: null },
      ]),
    ];
    expect(new Set(events.map((e) => e.type))).toEqual(new Set(PUBLICATION_EVENT_TYPES));
    for (const e of events) {
      const validate = ajv.compile(EVENT_SCHEMAS[e.type]);
      expect({ type: e.type, ok: validate(e.data), errors: validate.errors ?? null }).toEqual({ type: e.type, ok: true, errors: null });
    }
  });
});
