import { createHash, generateKeyPairSync } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { openCheckpoint } from '@palimpsest/core/audit/checkpoint-note';
import { eventLeafData } from '@palimpsest/core/audit/event-chain';
import { verifyConsistency, verifyInclusion } from '@palimpsest/core/audit/merkle-log';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { readStream } from '@palimpsest/store/read-stream';
import type { Db, Sql } from '@palimpsest/store/db';
import { checkpointOf, readAll, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { auditSigner } from './audit-signer';
import { AUDIT_STREAM, extendAuditLog } from './audit-log.reactor';
import { checkpoints, proveConsistency, proveEvent } from './audit-proofs.queries';

/** RFC 9162 section 2.1 as the RFC states it, written apart from libs/core/src/audit/merkle-log.ts. */
const h = (...parts: Buffer[]) => createHash('sha256').update(Buffer.concat(parts)).digest();
const k = (n: number) => 2 ** Math.ceil(Math.log2(n) - 1);
const mth = (d: Buffer[]): Buffer =>
  d.length === 0 ? h() : d.length === 1 ? h(Buffer.from([0]), d[0]!) : h(Buffer.from([1]), mth(d.slice(0, k(d.length))), mth(d.slice(k(d.length))));
const path = (m: number, d: Buffer[]): Buffer[] => {
  if (d.length <= 1) return [];
  const s = k(d.length);
  return m < s ? [...path(m, d.slice(0, s)), mth(d.slice(s))] : [...path(m - s, d.slice(s)), mth(d.slice(0, s))];
};

describe(`the Merkle log and its signed checkpoints (${describeBackend})`, () => {
  let testDb: TestDb;
  let db: Db;
  const signer = auditSigner(generateKeyPairSync('ed25519').privateKey, 'palimpsest.test', 'palimpsest.test/log');
  let clock = new Date('2026-01-01T00:00:00Z');

  /**
   * What the projector's consumer does: batches in readAll order, each in a transaction, until every
   * event is a leaf (on PostgreSQL readAll waits for other sessions of the server: the cluster's xmin).
   */
  async function catchUp(after: ReadAllCheckpoint | null, batchSize: number): Promise<ReadAllCheckpoint | null> {
    const deadline = Date.now() + 30_000;
    for (;;) {
      const events = await readAll(db, { after, limit: batchSize });
      if (events.length === 0) {
        const { rows } = await db.query<{ behind: boolean }>(`SELECT (SELECT count(*) FROM events) > coalesce((SELECT size FROM audit_log_state), 0) AS behind`);
        if (!rows[0]!.behind || Date.now() > deadline) return after;
        await new Promise((resolve) => setTimeout(resolve, 20));
        continue;
      }
      await db.transaction((tx) => extendAuditLog(tx, events, signer, { everyEvents: 5, everySeconds: 60 }, clock));
      after = checkpointOf(events.at(-1)!);
    }
  }

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
  });
  afterAll(() => testDb.dispose());

  it('signs checkpoints every N leaves and after T seconds, each a prefix of the next, each event provable', async () => {
    const streams = [uniqueStreamId('a'), uniqueStreamId('b'), uniqueStreamId('c')];
    for (const [i, s] of streams.entries()) await appendToStream(db, s, 0, sampleEvents(13 + i));
    let at = await catchUp(null, 4);
    await appendToStream(db, streams[0]!, 13, sampleEvents(1, 14));
    clock = new Date(clock.getTime() + 61_000);
    at = await catchUp(at, 4);

    const signed = await checkpoints(db);
    expect(signed.length).toBeGreaterThanOrEqual(3);
    // Every event of the log, in readAll order, with its link: the leaves as the RFC defines them.
    const all = await readAll(db, { limit: 1000 });
    const { rows } = await db.query<{ p: number; link: string }>(`SELECT global_position AS p, encode(chain_hash, 'hex') AS link FROM events`);
    const links = new Map(rows.map((r) => [r.p, r.link]));
    const data = all.map((e) => Buffer.from(eventLeafData(e, links.get(e.globalPosition)!)));
    expect(all.filter((e) => e.streamId === AUDIT_STREAM)).toHaveLength(signed.length);

    for (const [i, c] of signed.entries()) {
      const opened = openCheckpoint(c.note, signer.name, signer.publicKey);
      expect(opened).toMatchObject({ ok: true, checkpoint: { origin: 'palimpsest.test/log', size: c.size } });
      expect(c.root).toBe(mth(data.slice(0, c.size)).toString('hex'));
      if (i > 0) {
        const proof = (await proveConsistency(db, signed[i - 1]!.size, c.size))!;
        const hex = (s: string) => Buffer.from(s, 'hex');
        expect(verifyConsistency(proof.first.size, proof.second.size, hex(proof.first.root), hex(proof.second.root), proof.proof.map(hex))).toBe(true);
      }
    }
    const latest = signed.at(-1)!;
    for (const [index, event] of all.slice(0, latest.size).entries()) {
      const proof = (await proveEvent(db, event.globalPosition))!;
      expect(proof).toMatchObject({ leaf_index: index, tree_size: latest.size, leaf_hash: h(Buffer.from([0]), data[index]!).toString('hex') });
      expect(proof.path).toEqual(path(index, data.slice(0, latest.size)).map((b) => b.toString('hex')));
      const ok = verifyInclusion(index, latest.size, Buffer.from(proof.leaf_hash, 'hex'), proof.path.map((p) => Buffer.from(p, 'hex')), Buffer.from(latest.root, 'hex'));
      expect(ok).toBe(true);
    }
  });

  it("stores the inner nodes the leaves complete, the same the migration computes from the leaves of an older log", async () => {
    const nodes = async (sql: Sql) =>
      (await sql.query<{ n: string }>(`SELECT level || ':' || node_index || ':' || encode(hash, 'hex') AS n FROM audit_nodes ORDER BY level, node_index`)).rows.map((r) => r.n);
    const kept = await nodes(db);
    const { rows } = await db.query<{ size: number }>('SELECT size FROM audit_log_state');
    const size = Number(rows[0]!.size);
    const expected = Array.from({ length: 59 }, (_, l) => Math.floor(size / 2 ** (l + 4))).reduce((a, b) => a + b, 0);
    expect(kept).toHaveLength(expected);
    const migration = readFileSync(join(__dirname, '../../../../migrations/0028_audit_nodes.sql'), 'utf8');
    await db
      .transaction(async (tx) => {
        await tx.query('DELETE FROM audit_nodes');
        await tx.exec(migration.slice(migration.indexOf('DO $$')));
        expect(await nodes(tx)).toEqual(kept);
        throw new Error('undo');
      })
      .catch((error: Error) => {
        if (error.message !== 'undo') throw error;
      });
  });

  it('signs nothing for a batch of checkpoint events alone, however small N is', async () => {
    const stream = uniqueStreamId('n1');
    await appendToStream(db, stream, 0, sampleEvents(1));
    await db
      .transaction(async (tx) => {
        const { rows } = await tx.query<{ p: number }>('SELECT max(global_position) AS p FROM events WHERE stream_id = $1', [stream]);
        const [event] = (await readStream(tx, stream)).filter((e) => e.globalPosition === rows[0]!.p);
        const policy = { everyEvents: 1, everySeconds: 0 };
        expect(await extendAuditLog(tx, [event!], signer, policy, clock)).not.toBeNull();
        const checkpoint = (await readStream(tx, AUDIT_STREAM)).at(-1)!;
        expect(await extendAuditLog(tx, [checkpoint], signer, policy, clock)).toBeNull();
        throw new Error('undo');
      })
      .catch((error: Error) => {
        if (error.message !== 'undo') throw error;
      });
  });
});
