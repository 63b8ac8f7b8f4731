import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import { chainLink, eventDigest } from '@palimpsest/core/audit/event-chain';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import { isolatedStore, runCli } from '../support/cli-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** An auditor's round trip through the real CLI: export a workspace's bundle, verify it offline, and see tampering named. */
describe(`palimpsest export and verify as real processes on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  const bundleFile = () => join(dir, '..', `${dir.split('/').pop()}.bundle.json`);

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-audit-e2e-'));
    writeFileSync(join(dir, 'a.txt'), 'alpha beta\n');
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir, PALIMPSEST_AUDIT_KEY: `${dir}.key.pem` };
    expect((await runCli(['migrate'], { env })).code).toBe(0);
    for (const [from, to] of [['alpha', 'ALPHA'], ['beta', 'BETA']]) {
      const edited = await runCli(['call', 'edit_file'], { input: JSON.stringify({ path: 'a.txt', oldString: from, newString: to }), env });
      expect(JSON.parse(edited.stdout)).toMatchObject({ status: 'ok' });
    }
  });
  afterAll(async () => {
    for (const f of [dir, `${dir}.key.pem`, bundleFile()]) rmSync(f, { recursive: true, force: true });
    await store.dispose();
  });

  const verify = async (file: string) => {
    const r = await runCli(['verify', file], { env: {} });
    return { code: r.code, report: JSON.parse(r.stdout), stderr: r.stderr };
  };

  it('exports the workspace, verifies it offline with its engines re-run, and the live store too', async () => {
    const exported = await runCli(['export', '--workspace', '-o', bundleFile()], { env });
    expect(exported).toMatchObject({ code: 0 });
    expect(exported.stderr).toMatch(/palimpsest export: \d+ events/);
    const offline = await verify(bundleFile());
    expect(offline).toMatchObject({ code: 0, report: { ok: true, failure: null, replayed: { targets: 1, acceptances: 2 } } });
    const live = await runCli(['verify'], { env });
    expect(live.code).toBe(0);
    expect(JSON.parse(live.stdout)).toMatchObject({ ok: true });
  });

  it('exits 1 naming the event of a tampered bundle: a changed payload, and a rewritten acceptance relinked', async () => {
    const original = JSON.parse(readFileSync(bundleFile(), 'utf8')) as AuditBundle;
    const accepted = (b: AuditBundle) => b.events.filter((e) => e.type === 'ProposalAccepted').sort((x, y) => x.global_position - y.global_position).at(-1)!;

    const edited = structuredClone(original);
    (accepted(edited).data as { intent: string }).intent = 'not what was asked';
    writeFileSync(bundleFile(), JSON.stringify(edited));
    const changed = await verify(bundleFile());
    expect(changed.code).toBe(1);
    expect(changed.stderr).toMatch(/FAILED: event at position \d+ \(target-[0-9a-f-]+ version \d+\): its content or place does not match its chain link/);

    const forged = structuredClone(original);
    const last = accepted(forged);
    Object.assign(last.data as object, { effects: [{ start: 6, end: 10, inserted: 'BOGUS' }], after_hash: sha256Hex('ALPHA BOGUS\n') });
    const before = forged.events.find((e) => e.stream_id === last.stream_id && e.stream_version === last.stream_version - 1)!;
    last.chain_hash = chainLink(before.chain_hash, eventDigest({ streamId: last.stream_id, streamVersion: last.stream_version, type: last.type, schemaVersion: last.schema_version, data: last.data, metadata: last.metadata, recordedAt: last.recorded_at }));
    writeFileSync(bundleFile(), JSON.stringify(forged));
    const rewritten = await verify(bundleFile());
    expect(rewritten.code).toBe(1);
    expect(rewritten.report.failure).toMatchObject({ kind: 'event', global_position: last.global_position });
    expect(rewritten.stderr).toMatch(/the recorded engine does not reproduce it/);
  });

  it('refuses a workspace export with no workspace, saying how to name one', async () => {
    const r = await runCli(['export', '--workspace'], { env: { ...store.env, PALIMPSEST_AUDIT_KEY: `${dir}.key.pem`, PALIMPSEST_WORKSPACE_ROOT: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no workspace is configured/);
  });
});
