import { createHash } from 'node:crypto';
import { readFileSync, readdirSync } from 'node:fs';
import { join, resolve } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import { publishedSchemaFiles } from './published-schemas';
import { generatedFiles } from './generated-files';
import { CATALOG } from '../catalog/catalog';
import { decide, evolve } from '@palimpsest/core/target/target.decider';
import { eventsOf } from '@palimpsest/core/target/test-support/decider-spec';
import { initialTargetState } from '@palimpsest/core/target/target.state';
import { EVENT_SCHEMAS, SCHEMA_BASE } from './event-schemas';

const REPO_ROOT = resolve(__dirname, '../../../..');
const SCHEMAS_DIR = join(REPO_ROOT, 'schemas');

function listFiles(dir: string, prefix = ''): string[] {
  return readdirSync(dir, { withFileTypes: true }).flatMap((d) =>
    d.isDirectory() ? listFiles(join(dir, d.name), `${prefix}${d.name}/`) : [`${prefix}${d.name}`],
  );
}

describe('published schemas', () => {
  const generated = publishedSchemaFiles();

  it('schemas/ holds exactly what the catalog generates (run `npx palimpsest generate`)', () => {
    const onDisk = listFiles(SCHEMAS_DIR).filter((f) => f.endsWith('.json') && f !== 'released.lock.json').sort();
    expect(onDisk).toEqual([...generated.keys()].sort());
  });

  it('every generated file (schemas, reference, client) matches the catalog', () => {
    for (const [path, text] of generatedFiles()) {
      expect({ path, text: readFileSync(join(REPO_ROOT, path), 'utf8') }).toEqual({ path, text });
    }
  });

  it('every published schema loads into strict ajv by $id alone, and every example validates', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const ids: string[] = [];
    for (const [path, value] of generated) {
      if (path === 'index.json') continue;
      const schema = JSON.parse(readFileSync(join(SCHEMAS_DIR, path), 'utf8'));
      ajv.addSchema(schema);
      ids.push(schema.$id);
    }
    for (const id of ids) expect(() => ajv.getSchema(id)).not.toThrow();
    const index = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'index.json'), 'utf8'));
    expect(index.schemas.map((s: { $id: string }) => s.$id).sort()).toEqual([...ids].sort());
    for (const op of CATALOG) {
      const validate = ajv.getSchema(`${SCHEMA_BASE}/operations/${op.name}.params.v1.json`)!;
      for (const ex of op.examples) expect({ op: op.name, ex: ex.title, ok: validate(ex.params) }).toEqual({ op: op.name, ex: ex.title, ok: true });
    }
  });

  it('released schemas are frozen: their bytes match the release lock', () => {
    const lock = JSON.parse(readFileSync(join(SCHEMAS_DIR, 'released.lock.json'), 'utf8')) as Record<string, string>;
    expect(Object.keys(lock).length).toBeGreaterThan(0);
    for (const [path, sha] of Object.entries(lock)) {
      const digest = createHash('sha256').update(readFileSync(join(SCHEMAS_DIR, path))).digest('hex');
      expect({ path, digest }).toEqual({ path, digest: sha });
    }
  });

  it('every decided event validates against its published schema', () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const now = '2026-11-30T00:00:00.000Z';
    const T = '11111111-1111-4111-8111-111111111111';
    const init = eventsOf(decide(
      { type: 'InitializeTarget', now, target_id: T, filename: 'a', content: 'x y x\r\n', content_type: 'text/plain', project_id: null, editing_cycle_id: '22222222-2222-4222-8222-222222222222', snapshot_id: '33333333-3333-4333-8333-333333333333' },
      initialTargetState,
    ));
    const s0 = init.reduce(evolve, initialTargetState);
    const sub = (edits: unknown[], n: string) =>
      eventsOf(decide({ type: 'SubmitProposal', now, attempt_id: `44444444-4444-4444-8444-44444444444${n}`, target_id: T, protocol_version: 'patchdiff-tx/1', proposal: { intent: 'i', edits }, expected_target_version: 0, client_request_id: 'k', lookups: { keyed: null, parent: null } }, s0));
    const saved = eventsOf(decide({ type: 'SaveCheckpoint', now, target_id: T, snapshot_id: '55555555-5555-4555-8555-555555555555', new_editing_cycle_id: '66666666-6666-4666-8666-666666666666' }, s0));
    const workspace = { path: 'docs/a.md', root_dev: '18446744073709551615', root_ino: '2', file_dev: '64768', file_ino: '131', source_sha256: 'a'.repeat(64) };
    const imported = eventsOf(decide(
      { type: 'InitializeTarget', now, target_id: T, filename: 'docs/a.md', content: 'x\r\n', content_type: 'text/plain', project_id: null, editing_cycle_id: '22222222-2222-4222-8222-222222222222', snapshot_id: '33333333-3333-4333-8333-333333333333', workspace, publish: 'on_save' },
      initialTargetState,
    ));
    const events = [...init, ...sub([{ match: 'y', replace: 'y' }], '1'), ...sub([{ match: 'x', replace: 'z' }], '2'), ...saved, ...imported.slice(1)];
    expect(events.map((e) => e.type)).toEqual(['TargetInitialized', 'ProposalAccepted', 'ProposalRejected', 'CheckpointSaved', 'WorkspaceFileBound', 'WorkspacePublishSet']);
    for (const e of events) {
      const validate = ajv.compile(EVENT_SCHEMAS[e.type]);
      expect({ type: e.type, valid: validate(e.data), errors: validate.errors ?? null }).toEqual({ type: e.type, valid: true, errors: null });
    }
  });
});
