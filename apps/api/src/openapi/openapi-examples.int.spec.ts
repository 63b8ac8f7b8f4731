import { ActiveProjects } from '@palimpsest/application/relay/active-projects';
import { PROJECT_OPERATIONS } from '@palimpsest/protocol/catalog/operations/projects.operations';
import { createPrivateKey } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { extendAuditLog } from '@palimpsest/projections/audit/audit-log.reactor';
import { auditSigner } from '@palimpsest/projections/audit/audit-signer';
import type { Db } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { checkpointOf, readAll, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { openWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { dispatchRequest as dispatch } from '@palimpsest/application/dispatch/dispatch';
import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { runExamples, type ExampleRuns } from './example-scenario';
import { gatewayRefusals, operatorAnswers } from './gateway-examples';
import { OPENAPI_EXAMPLES } from './openapi-examples';

const GENERATED = join(__dirname, 'openapi-examples.generated.json');
const UUID = /[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}/gi;
const TIME = /\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d(\.\d+)?Z/g;
/** A retry's request key is derived from the rejected attempt's fresh id. */
const RETRY_KEY = /~retry-[0-9a-f]{8}\b/g;
/** Values that differ from run to run by nature: the store's fresh ids, clock readings, durations, fingerprints over them. */
/** …and the workspace root's device and inode numbers, and a started process's pid. */
/** …and the audit log's hashes and signed notes, which cover the events' fresh ids and times. */
const VOLATILE_KEYS = /^(input_fingerprint|duration_ms|device|inode|dev|ino|pid|leaf_hash|audit_path|root_hash|signed_note|proof_hashes)$/;

function mask(value: unknown, key = ''): unknown {
  if (VOLATILE_KEYS.test(key)) return `<${key}>`;
  if (typeof value === 'string') return value.replace(UUID, '<uuid>').replace(TIME, '<time>').replace(RETRY_KEY, '~retry-<attempt>');
  if (Array.isArray(value)) return value.map((v) => mask(v, key));
  if (value && typeof value === 'object') return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, mask(v, k)]));
  return value;
}

/**
 * The projector's audit log reactor run until every event is a leaf, signing a checkpoint each time (a fixed
 * key). Each step waits until the consumer sees every event written so far and extends the log with all of
 * them at once: on PostgreSQL readAll sees nothing above the server's xmin, which a transaction of another
 * database (another test on the same server) holds back, and a page cut there signed one more checkpoint
 * than the examples record, moving every later position.
 */
function auditCatchUp(db: Db): () => Promise<void> {
  const seed = Buffer.alloc(32, 7);
  const key = createPrivateKey({ key: Buffer.concat([Buffer.from('302e020100300506032b657004220420', 'hex'), seed]), format: 'der', type: 'pkcs8' });
  const signer = auditSigner(key, 'palimpsest.example', 'palimpsest.example/log');
  let after: ReadAllCheckpoint | null = null;
  return async () => {
    for (;;) {
      const { rows } = await db.query<{ last: string | null }>('SELECT max(global_position) AS last FROM events');
      const last = Number(rows[0]!.last ?? 0);
      if ((after?.position ?? 0) >= last) return;
      const events = await readThrough(db, after, last);
      await db.transaction((tx) => extendAuditLog(tx, events, signer, { everyEvents: 1_000_000, everySeconds: 0 }, new Date()));
      after = checkpointOf(events.at(-1)!);
    }
  };
}

/** Every event after `after` up to position `last`, waiting for the ones the consumer cannot see yet. */
async function readThrough(db: Db, after: ReadAllCheckpoint | null, last: number): Promise<StoredEvent[]> {
  const events: StoredEvent[] = [];
  while ((events.at(-1)?.globalPosition ?? after?.position ?? 0) < last) {
    const page = await readAll(db, { after: events.length > 0 ? checkpointOf(events.at(-1)!) : after, limit: 1000 });
    if (page.length === 0) await new Promise((resolve) => setTimeout(resolve, 20));
    events.push(...page.filter((e) => e.globalPosition <= last));
  }
  return events;
}

function write(runs: ExampleRuns): void {
  writeFileSync(GENERATED, `${JSON.stringify(runs, null, 2)}\n`);
}


const EXAMPLE_PROJECT = { id: 'prj_4f1c0b2e9a7d46e8b3c5d1a2f0e9c8b7', slug: 'site', online: true };
const EXAMPLE_CLIENT = 'example-client';

// The OpenAPI document's examples are the answers of a real run: rerun it and compare, so they cannot go stale.
describe(`the OpenAPI examples are real answers on ${describeBackend}`, () => {
  let h: AppHarness;
  let runs: ExampleRuns;
  let dir: string;
  let root: WorkspaceRoot;
  beforeAll(async () => {
    h = await createAppHarness();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-examples-'));
    root = openWorkspaceRoot(dir);
    const ctx = appContext(h.testDb.db, { workspace: root });
    const writeFile = (path: string, text: string) => {
      mkdirSync(dirname(join(dir, path)), { recursive: true });
      writeFileSync(join(dir, path), text);
    };
    // One executor's project, chosen by the client the project examples run as (the relay itself is not run here).
    ctx.relay = { port: { projects: () => [EXAMPLE_PROJECT], call: () => Promise.reject(new Error('no relayed call in the examples')) }, active: new ActiveProjects() };
    ctx.relay.active.set(EXAMPLE_CLIENT, EXAMPLE_PROJECT.id);
    const asClient = (name: string) => (PROJECT_OPERATIONS.some((op) => op.name === name) ? { correlationId: EXAMPLE_CLIENT } : {});
    const operations = await runExamples((name, args) => dispatch(ctx, name, args, asClient(name)), { path: dir, write: writeFile }, auditCatchUp(h.testDb.db), () => ctx.commands.recordHeld());
    runs = { ...operations, errors: [...operations.errors, ...(await gatewayRefusals())], gateway: await operatorAnswers(h.ctx) };
    if (process.env.UPDATE_OPENAPI_EXAMPLES) write(runs);
  }, 120_000);
  afterAll(async () => {
    root.close();
    rmSync(dir, { recursive: true, force: true });
    await h.dispose();
  });

  it('every operation example succeeds', () => {
    const failed = Object.entries(runs.operations).filter(([, r]) => !['ok', 'accepted', 'saved', 'success', 'refreshed', 'observed'].includes(r.result.status));
    expect(failed).toEqual([]);
    expect(runs.alternates['palimpsest_preview.rejected']!.result).toMatchObject({ status: 'rejected', failure_reason: 'match_ambiguous' });
  });

  it('the documented answers are the ones this run got (ids, times and durations aside)', () => {
    expect(mask(OPENAPI_EXAMPLES.operations)).toEqual(mask(runs.operations));
    expect(mask(OPENAPI_EXAMPLES.alternates)).toEqual(mask(runs.alternates));
    expect(mask(OPENAPI_EXAMPLES.gateway)).toEqual(mask(runs.gateway));
  });

  it('every error request is refused with the status its example stands for', () => {
    expect(Object.fromEntries(runs.errors.map((e) => [e.name, [e.status, (e.body.error as { code: string }).code]]))).toMatchObject({
      not_found: [404, 'not_found'],
      precondition_failed: [409, 'precondition_failed'],
      conflict: [409, 'conflict'],
      proposal_rejected: [422, 'proposal_rejected'],
      replacement_too_large: [413, 'resource_limit'],
      invalid_arguments: [400, 'invalid_arguments'],
      unauthenticated: [401, 'unauthenticated'],
      permission_denied: [403, 'permission_denied'],
      saturated: [429, 'resource_limit'],
    });
  });

  it('the documented error answers are the ones this run got', () => {
    expect(mask(OPENAPI_EXAMPLES.errors)).toEqual(mask(runs.errors));
  });
});
