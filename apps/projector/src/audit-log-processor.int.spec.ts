import { generateKeyPairSync } from 'node:crypto';
import { mkdtempSync, rmSync, statSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openCheckpoint, parseVerifierKey } from '@palimpsest/core/audit/checkpoint-note';
import { verifyInclusion } from '@palimpsest/core/audit/merkle-log';
import { auditConfigFrom } from '@palimpsest/projections/audit/audit-config';
import { auditSigner, loadOrCreateAuditKey } from '@palimpsest/projections/audit/audit-signer';
import { checkpoints, proveEvent } from '@palimpsest/projections/audit/audit-proofs.queries';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { configuredProjector } from './configured-processors';
import type { LogConsumer } from './log-consumer';
import { projectorConsumer } from './projector-consumer';

describe(`the audit log on the projector (${describeBackend})`, () => {
  const store = useTestDb();
  let projector: LogConsumer | undefined;
  const dir = mkdtempSync(join(tmpdir(), 'palimpsest-audit-'));

  afterAll(async () => {
    await projector?.stop();
    rmSync(dir, { recursive: true, force: true });
  });

  it('is off unless configured, and keeps its key beside the data directory when on', () => {
    expect(auditConfigFrom({}, dir)).toBeNull();
    expect(auditConfigFrom({ PALIMPSEST_AUDIT: 'on', PALIMPSEST_DATA_DIR: join(dir, 'data') }, dir)).toEqual({
      keyFile: join(dir, 'data.audit-key.pem'),
      policy: { everyEvents: 1000, everySeconds: 10 },
    });
    expect(() => auditConfigFrom({ PALIMPSEST_AUDIT_KEY: 'k', PALIMPSEST_AUDIT_CHECKPOINT_EVENTS: '0' }, dir)).toThrow(RangeError);
    const file = join(dir, 'key.pem');
    const key = loadOrCreateAuditKey(file);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(auditSigner(loadOrCreateAuditKey(file)).verifierKey).toBe(auditSigner(key).verifierKey);
  });

  it('signs checkpoints of the log as the projector follows it, and prints the verifier key', async () => {
    const { db } = store;
    const said: string[] = [];
    const logger = { info: (fields: object, message: string) => said.push(`${message} ${JSON.stringify(fields)}`), warn: () => undefined, error: () => undefined };
    const options = configuredProjector(
      { relay: null, batchSize: 10, audit: { keyFile: join(dir, 'projector-key.pem'), policy: { everyEvents: 3, everySeconds: 3600 } } },
      logger,
    );
    const verifier = parseVerifierKey(options.audit!.signer.verifierKey);
    expect(said.join('\n')).toContain(options.audit!.signer.verifierKey);
    projector = projectorConsumer(db, { ...options, projections: [], runner: { ...options.runner, pollMs: 50 } });
    await projector.start();

    const stream = uniqueStreamId('audited');
    const { positions } = await appendToStream(db, stream, 0, sampleEvents(7));
    const signed = await eventually(() => checkpoints(db), (all) => all.some((c) => c.size >= 7), { timeoutMs: 30_000 });
    const latest = signed.at(-1)!;
    expect(openCheckpoint(latest.note, verifier.name, verifier.publicKey)).toMatchObject({ ok: true, checkpoint: { size: latest.size } });
    const proof = (await proveEvent(db, positions[6]!))!;
    expect(verifyInclusion(proof.leaf_index, proof.tree_size, Buffer.from(proof.leaf_hash, 'hex'), proof.path.map((p) => Buffer.from(p, 'hex')), Buffer.from(proof.checkpoint.root, 'hex'))).toBe(true);
    // Another key does not open it.
    const other = auditSigner(generateKeyPairSync('ed25519').privateKey);
    expect(openCheckpoint(latest.note, verifier.name, other.publicKey).ok).toBe(false);
  });
});
