import { generateKeyPairSync } from 'node:crypto';
import { writeFileSync } from 'node:fs';
import { join } from 'node:path';
import type { AuditBundle, BundleEvent } from '@palimpsest/core/audit/audit-bundle';
import { chainLink, eventDigest } from '@palimpsest/core/audit/event-chain';
import { describeFailure, verifyBundle } from '@palimpsest/core/audit/verify-bundle';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import { auditSigner } from '@palimpsest/projections/audit/audit-signer';
import { latestBindingOfPath } from '@palimpsest/projections/workspace-files.queries';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { dispatchRequest } from '../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../test-support/workspace-harness';
import { exportBundle } from './audit-bundle.use-case';

/** A workspace's bundle, verified offline down to its engines: a history rewritten consistently is still caught. */
describe(`a workspace's audit bundle, verified with its engines re-run, on ${describeBackend}`, () => {
  let h: WorkspaceHarness;
  const key = auditSigner(generateKeyPairSync('ed25519').privateKey, 'palimpsest.test', 'palimpsest.test/log').verifierKey;
  const call = async (tool: string, args: unknown) => (await dispatchRequest(h.ctx, tool, args)) as Record<string, any>;
  let fileTarget: string;
  let standalone: string;

  beforeAll(async () => {
    h = await createWorkspaceHarness('palimpsest-audit-bundle-');
    writeFileSync(join(h.dir, 'a.txt'), 'alpha beta\n');
    expect(await call('edit_file', { path: 'a.txt', oldString: 'alpha', newString: 'ALPHA' })).toMatchObject({ status: 'ok' });
    expect(await call('edit_file', { path: 'a.txt', oldString: 'beta', newString: 'BETA' })).toMatchObject({ status: 'ok' });
    fileTarget = (await latestBindingOfPath(h.ctx.db, h.ctx.workspace!, 'a.txt'))!.target_id;
    standalone = (await call('palimpsest_initialize_target', { filename: 'note.md', content: 'not in the workspace\n' })).target_file_id;
  });
  afterAll(() => h.dispose());

  const streamsOf = (bundle: AuditBundle) => [...new Set(bundle.events.map((e) => e.stream_id))];

  it("holds every bound file's stream and no other, and verifies with each acceptance's engine re-run", async () => {
    const bundle = await exportBundle(h.ctx, key, { workspace: true });
    expect(streamsOf(bundle)).toContain(targetStreamId(fileTarget));
    expect(streamsOf(bundle)).not.toContain(targetStreamId(standalone));
    expect(bundle.scope).toMatchObject({ kind: 'streams' });
    const report = verifyBundle(bundle);
    expect(report).toMatchObject({ ok: true, failure: null });
    expect(report.replayed?.targets).toBe(streamsOf(bundle).filter((s) => s.startsWith('target-')).length);
    expect(report.replayed?.acceptances).toBeGreaterThanOrEqual(2);
    expect(verifyBundle(bundle, undefined, { engines: false }).replayed).toBeUndefined();
  });

  it('names the acceptance whose effects and after_hash were rewritten and relinked: only the engine re-run sees it', async () => {
    const bundle = JSON.parse(JSON.stringify(await exportBundle(h.ctx, key, { targets: [fileTarget] }))) as AuditBundle;
    const stream = bundle.events.filter((e) => e.stream_id === targetStreamId(fileTarget)).sort((a, b) => a.stream_version - b.stream_version);
    const last = stream.filter((e) => e.type === 'ProposalAccepted').at(-1)!;
    const data = last.data as { effects: { start: number; end: number; inserted: string }[]; after_hash: string };
    expect(data.effects).toEqual([{ start: 6, end: 10, inserted: 'BETA' }]);
    // A forger with the database (and no checkpoint yet signed over it): new effects, a matching after_hash, the chain relinked.
    data.effects = [{ start: 6, end: 10, inserted: 'BOGUS' }];
    data.after_hash = sha256Hex('ALPHA BOGUS\n');
    relink(stream, stream.indexOf(last));
    expect(verifyBundle(bundle, undefined, { engines: false })).toMatchObject({ ok: true });
    const report = verifyBundle(bundle);
    expect(report.ok).toBe(false);
    expect(describeFailure(report.failure!)).toMatch(
      new RegExp(`^event at position ${last.global_position} \\(${targetStreamId(fileTarget)} version ${last.stream_version}\\): the recorded engine does not reproduce it`),
    );
  });
});

/** Recomputes the chain links from `from` on, as someone who knows the chain's rule would. */
function relink(stream: BundleEvent[], from: number): void {
  let previous = stream[from - 1]!.chain_hash;
  for (const e of stream.slice(from)) {
    e.chain_hash = previous = chainLink(previous, eventDigest({ streamId: e.stream_id, streamVersion: e.stream_version, type: e.type, schemaVersion: e.schema_version, data: e.data, metadata: e.metadata, recordedAt: e.recorded_at }));
  }
}
