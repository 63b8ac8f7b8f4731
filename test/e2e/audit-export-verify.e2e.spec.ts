import { mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { BUNDLE_FORMAT, type AuditBundle, type BundleEvent } from '@palimpsest/core/audit/audit-bundle';
import { bundleText, type BundleHeader } from '@palimpsest/core/audit/bundle-lines';
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

  it('verifies the same bundle in worker threads, and the same bundle as one document (format 1)', async () => {
    const threads = await runCli(['verify', bundleFile(), '--workers', '2'], { env: {} });
    expect(threads.code).toBe(0);
    expect(JSON.parse(threads.stdout)).toMatchObject({ ok: true, replayed: { targets: 1, acceptances: 2 } });
    const document = `${bundleFile()}.json`;
    writeFileSync(document, JSON.stringify(asDocument(readFileSync(bundleFile(), 'utf8'))));
    try {
      expect(await verify(document)).toMatchObject({ code: 0, report: { ok: true, replayed: { targets: 1, acceptances: 2 } } });
      const tampered = asDocument(readFileSync(bundleFile(), 'utf8'));
      (accepted(tampered).data as { intent: string }).intent = 'not what was asked';
      writeFileSync(document, JSON.stringify(tampered));
      const changed = await verify(document);
      expect(changed.code).toBe(1);
      expect(changed.report.failure).toMatchObject({ kind: 'event', global_position: accepted(tampered).global_position });
    } finally {
      rmSync(document, { force: true });
    }
  });

  it('exits 1 naming the event of a tampered bundle: a changed payload, a non-canonical line, and a rewritten acceptance relinked', async () => {
    const original = readFileSync(bundleFile(), 'utf8');
    const last = accepted(asDocument(original));
    const lineOf = (text: string) => text.split('\n').findIndex((l) => l.startsWith(`[${last.global_position},`));
    const withLine = (edit: (line: string) => string) => original.split('\n').map((l, i) => (i === lineOf(original) ? edit(l) : l)).join('\n');

    for (const threads of ['1', '2']) {
      writeFileSync(bundleFile(), withLine((l) => l.replace(/"intent":"[^"]*"/, '"intent":"not what was asked"')));
      const changed = await runCli(['verify', bundleFile(), '--workers', threads], { env: {} });
      expect(changed.code).toBe(1);
      expect(changed.stderr).toMatch(/FAILED: event at position \d+ \(target-[0-9a-f-]+ version \d+\): its content or place does not match its chain link/);

      writeFileSync(bundleFile(), withLine((l) => l.replace('"type":', '"type" :')));
      const spaced = await runCli(['verify', bundleFile(), '--workers', threads], { env: {} });
      expect(spaced.code).toBe(1);
      expect(JSON.parse(spaced.stdout).failure).toMatchObject({ kind: 'event', global_position: last.global_position, message: expect.stringMatching(/its line is altered/) });
    }

    const forged = asDocument(original);
    const target = accepted(forged);
    Object.assign(target.data as object, { effects: [{ start: 6, end: 10, inserted: 'BOGUS' }], after_hash: sha256Hex('ALPHA BOGUS\n') });
    const before = forged.events.find((e) => e.stream_id === target.stream_id && e.stream_version === target.stream_version - 1)!;
    target.chain_hash = chainLink(before.chain_hash, eventDigest({ streamId: target.stream_id, streamVersion: target.stream_version, type: target.type, schemaVersion: target.schema_version, data: target.data, metadata: target.metadata, recordedAt: target.recorded_at }));
    writeFileSync(bundleFile(), bundleText(forged));
    const rewritten = await verify(bundleFile());
    expect(rewritten.code).toBe(1);
    expect(rewritten.report.failure).toMatchObject({ kind: 'event', global_position: target.global_position });
    expect(rewritten.stderr).toMatch(/the recorded engine does not reproduce it/);
    writeFileSync(bundleFile(), original);
  });

  it('refuses a file that is not a bundle, saying how to write one', async () => {
    const notes = `${bundleFile()}.txt`;
    writeFileSync(notes, 'dear diary\n');
    try {
      const r = await runCli(['verify', notes], { env: {} });
      expect(r.code).toBe(2);
      expect(r.stderr).toMatch(/is not a bundle: .*palimpsest export -o <file>/);
    } finally {
      rmSync(notes, { force: true });
    }
  });

  it('refuses a workspace export with no workspace, saying how to name one', async () => {
    const r = await runCli(['export', '--workspace'], { env: { ...store.env, PALIMPSEST_AUDIT_KEY: `${dir}.key.pem`, PALIMPSEST_WORKSPACE_ROOT: '' } });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/no workspace is configured/);
  });

  it('refuses an output file it cannot write, naming it, without a stack trace', async () => {
    const r = await runCli(['export', '-o', join(dir, 'no-such-dir', 'bundle.jsonl')], { env });
    expect(r.code).toBe(2);
    expect(r.stderr).toMatch(/cannot write .*no-such-dir.*ENOENT/);
    expect(r.stderr).not.toMatch(/\n\s+at /);
  });
});

/** The newest acceptance of a bundle. */
function accepted(b: AuditBundle): BundleEvent {
  return b.events.filter((e) => e.type === 'ProposalAccepted').sort((x, y) => x.global_position - y.global_position).at(-1)!;
}

/** A bundle of lines read back as the one document format 1 is (events, leaves, inclusion proofs). */
function asDocument(text: string): AuditBundle {
  const [first, ...rest] = text.trim().split('\n');
  const header = JSON.parse(first!) as BundleHeader;
  const rows = rest.map((l) => JSON.parse(l) as [number, number | null, string, unknown, Record<string, never>]);
  const events = rows.map(([position, leaf, chain, , e]): BundleEvent => ({ global_position: position, stream_id: e.streamId, stream_version: e.streamVersion, type: e.type, schema_version: e.schemaVersion, data: e.data, metadata: e.metadata, recorded_at: e.recordedAt, chain_hash: chain, leaf_index: leaf }));
  const inclusion = rows.flatMap(([position, , , proof]) => (proof !== null && typeof proof === 'object' ? [{ global_position: position, ...(proof as { path: string[]; tree_size: number }) }] : []));
  const leaves = rows.flatMap(([, , , proof]) => (typeof proof === 'string' ? [proof] : []));
  return { format: BUNDLE_FORMAT, verifier_key: header.verifier_key, scope: header.scope, events, checkpoints: header.checkpoints, consistency: header.consistency, inclusion, ...(header.scope.kind === 'log' ? { leaves } : {}) };
}
