import { generateKeyPairSync } from 'node:crypto';
import type { AuditBundle } from '@palimpsest/core/audit/audit-bundle';
import { chainLink, eventDigest } from '@palimpsest/core/audit/event-chain';
import { describeFailure, verifyBundle } from '@palimpsest/core/audit/verify-bundle';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db, Sql } from '@palimpsest/store/db';
import { checkpointOf, readAll, type ReadAllCheckpoint } from '@palimpsest/store/read-all';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { xminHolder } from '@palimpsest/store/test-support/eventually';
import { createTestDb, describeBackend, type TestDb } from '@palimpsest/store/test-support/test-db';
import { extendAuditLog } from './audit-log.reactor';
import { exportAuditBundle } from './audit-export.queries';
import { auditSigner } from './audit-signer';

/** Tampering with the log, in a bundle and in the store itself: each case is caught and named. */
describe(`verifying the audit log (${describeBackend})`, () => {
  let testDb: TestDb;
  let db: Db;
  const signer = auditSigner(generateKeyPairSync('ed25519').privateKey, 'palimpsest.test', 'palimpsest.test/log');
  const streams = [uniqueStreamId('a'), uniqueStreamId('b')];
  let log: AuditBundle;
  let some: AuditBundle;

  beforeAll(async () => {
    testDb = await createTestDb();
    db = testDb.db;
    await appendToStream(db, streams[0]!, 0, sampleEvents(6));
    await appendToStream(db, streams[1]!, 0, sampleEvents(5, 10));
    await catchUp(db);
    await appendToStream(db, streams[0]!, 6, sampleEvents(3, 7));
    await catchUp(db);
    log = await exportAuditBundle(db, signer.verifierKey, null);
    some = await exportAuditBundle(db, signer.verifierKey, [streams[0]!]);
  }, 120_000);
  afterAll(() => testDb.dispose());

  /** The projector's reactor, batch by batch, until every event is a leaf (on PostgreSQL readAll waits for the server's xmin). */
  let after: ReadAllCheckpoint | null = null;
  async function catchUp(sql: Db): Promise<void> {
    const deadline = Date.now() + 45_000;
    for (;;) {
      const events = await readAll(sql, { after, limit: 4 });
      if (events.length > 0) {
        await sql.transaction((tx) => extendAuditLog(tx, events, signer, { everyEvents: 4, everySeconds: 3600 }, new Date()));
        after = checkpointOf(events.at(-1)!);
        continue;
      }
      const { rows } = await sql.query<{ behind: boolean }>(`SELECT (SELECT count(*) FROM events) > coalesce((SELECT size FROM audit_log_state), 0) AS behind`);
      if (!rows[0]!.behind) return;
      if (Date.now() > deadline) throw new Error(`the audit log is behind the events after 45 s; the horizon is held by ${await xminHolder(sql)}`);
      await new Promise((resolve) => setTimeout(resolve, 20));
    }
  }

  const copy = (bundle: AuditBundle): AuditBundle => JSON.parse(JSON.stringify(bundle));
  const failureOf = (bundle: AuditBundle, trusted?: string) => {
    const report = verifyBundle(bundle, trusted);
    return report.failure ? describeFailure(report.failure) : 'ok';
  };
  const eventOf = (bundle: AuditBundle, stream: string, version: number) => bundle.events.find((e) => e.stream_id === stream && e.stream_version === version)!;

  it('passes an untouched bundle, of the whole log and of one stream, every event proven', () => {
    expect(verifyBundle(log)).toMatchObject({ ok: true, failure: null, events: log.events.length, proven: log.events.length - 1 });
    expect(log.checkpoints.length).toBeGreaterThanOrEqual(4);
    expect(verifyBundle(some)).toMatchObject({ ok: true, events: 9, proven: 9 });
    expect(JSON.stringify(some.inclusion.at(-1)!.path).length).toBeLessThan(1024);
  });

  describe.each([
    ['the whole log', () => log],
    ['one stream', () => some],
  ])('a bundle of %s', (_, bundle) => {
    it('names the event one byte of whose payload changed', () => {
      const b = copy(bundle());
      const e = eventOf(b, streams[0]!, 3);
      e.data = { n: 4 };
      expect(failureOf(b)).toBe(`event at position ${e.global_position} (${streams[0]} version 3): its content or place does not match its chain link: the event, or its order in the stream, was altered`);
    });

    it('names the event after a deleted one', () => {
      const b = copy(bundle());
      const gone = eventOf(b, streams[0]!, 4);
      b.events = b.events.filter((e) => e !== gone);
      expect(failureOf(b)).toContain(`(${streams[0]} version 5): version 4 of the stream is missing before it: an event was deleted`);
    });

    it('names two events reordered', () => {
      const b = copy(bundle());
      const [x, y] = [eventOf(b, streams[0]!, 2), eventOf(b, streams[0]!, 3)];
      [x.stream_version, y.stream_version] = [3, 2];
      expect(failureOf(b)).toMatch(new RegExp(`^event at position ${y.global_position} \\(${streams[0]} version 2\\): its content or place does not match`));
    });

    it('names an event inserted with a chain recomputed around it', () => {
      const b = copy(bundle());
      const stream = b.events.filter((e) => e.stream_id === streams[0]).sort((p, q) => p.stream_version - q.stream_version);
      // A forger who knows the chain's rule: a new version 3, every later version moved up and relinked.
      const forged = { ...stream[2]!, data: { n: 999 }, global_position: stream[2]!.global_position };
      const rewritten = [...stream.slice(0, 2), forged, ...stream.slice(2).map((e) => ({ ...e, stream_version: e.stream_version + 1 }))];
      let previous = stream[1]!.chain_hash;
      for (const e of rewritten.slice(2)) {
        e.chain_hash = previous = chainLink(previous, eventDigest({ streamId: e.stream_id, streamVersion: e.stream_version, type: e.type, schemaVersion: e.schema_version, data: e.data, metadata: e.metadata, recordedAt: e.recorded_at }));
      }
      b.events = [...b.events.filter((e) => e.stream_id !== streams[0]), ...rewritten];
      expect(failureOf(b)).toMatch(new RegExp(`^event at position ${forged.global_position} \\(${streams[0]} version 3\\): not (the event signed|in the signed log) at leaf`));
    });

    it('names a checkpoint swapped with another, and one whose signature was forged', () => {
      const swapped = copy(bundle());
      const [c1, c2] = [swapped.checkpoints[1]!, swapped.checkpoints[2]!];
      [swapped.checkpoints[1], swapped.checkpoints[2]] = [c2, c1];
      // The first checkpoint out of place is named: its proof from the one before is missing, or it is smaller.
      expect(failureOf(swapped)).toMatch(/^checkpoint [12] \(size \d+\): (no consistency proof from \d+|smaller than the checkpoint before it)/);
      const forged = copy(bundle());
      const note = forged.checkpoints[1]!.note.split('\n');
      note[1] = String(Number(note[1]) + 1);
      forged.checkpoints[1]!.note = note.join('\n');
      expect(failureOf(forged)).toMatch(/^checkpoint 1 \(size \d+\): the signature of palimpsest\.test does not verify$/);
    });
  });

  it('names the leaves missing from a truncated log', () => {
    const b = copy(log);
    const size = Number(b.checkpoints.at(-1)!.note.split('\n')[1]);
    b.events = b.events.filter((e) => e.leaf_index === null || e.leaf_index < size - 2);
    expect(failureOf(b)).toMatch(new RegExp(`(leaf ${size - 2} of the ${size} the latest checkpoint signed has no event: deleted, or the log truncated|version \\d+ of the stream is missing)`));
  });

  it('names a leaf not written in lowercase hex', () => {
    const b = copy(log);
    b.leaves![1] = b.leaves![1]!.toUpperCase();
    expect(failureOf(b)).toMatch(/leaf 1 is not a hash in lowercase hex/);
  });

  describe('the live store', () => {
    /** Tampers in SQL (the append-only trigger off, as someone with the database could), verifies, undoes. */
    async function tampered(change: (tx: Sql) => Promise<unknown>, trusted?: string): Promise<string> {
      let found = '';
      await db
        .transaction(async (tx) => {
          await tx.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
          await change(tx);
          found = failureOf(await exportAuditBundle(tx, signer.verifierKey, null), trusted);
          throw new Error('undo');
        })
        .catch((error: Error) => {
          if (error.message !== 'undo') throw error;
        });
      return found;
    }
    const at = (stream: string, version: number) => eventOf(log, stream, version).global_position;

    it('is verified as it stands', async () => {
      expect(failureOf(await exportAuditBundle(db, signer.verifierKey, null))).toBe('ok');
    });

    it('names a row whose payload was changed in SQL', async () => {
      const p = at(streams[1]!, 2);
      expect(await tampered((tx) => tx.query(`UPDATE events SET data = '{"n": 12}' WHERE global_position = $1`, [p]))).toMatch(
        new RegExp(`^event at position ${p} \\(${streams[1]} version 2\\): its content or place does not match its chain link`),
      );
    });

    it('names the row after one deleted in SQL', async () => {
      const p = at(streams[1]!, 3);
      expect(await tampered((tx) => tx.query('DELETE FROM events WHERE global_position = $1', [p]))).toContain(`(${streams[1]} version 4): version 3 of the stream is missing`);
    });

    it('names rows reordered in SQL', async () => {
      const [p, q] = [at(streams[1]!, 1), at(streams[1]!, 2)];
      const swap = `UPDATE events SET data = CASE global_position WHEN $1 THEN (SELECT data FROM events WHERE global_position = $2) ELSE (SELECT data FROM events WHERE global_position = $1) END WHERE global_position IN ($1, $2)`;
      expect(await tampered((tx) => tx.query(swap, [p, q]))).toMatch(new RegExp(`^event at position ${p} \\(${streams[1]} version 1\\)`));
    });

    it('names a row inserted in SQL beside the log, its chain link right', async () => {
      const stream = uniqueStreamId('forged');
      const event = { streamId: stream, streamVersion: 1, type: 'Forged', schemaVersion: 1, data: {}, metadata: {}, recordedAt: '2024-01-01T00:00:00.000Z' };
      const link = chainLink('0'.repeat(64), eventDigest(event));
      // Back-dated below the signed events, as a forger placing it in the past would.
      const insert = `INSERT INTO events (global_position, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at, chain_hash)
        OVERRIDING SYSTEM VALUE VALUES (0, $1, 1, 'Forged', 1, '{}', '{}', $2, decode($3, 'hex'))`;
      expect(await tampered((tx) => tx.query(insert, [stream, event.recordedAt, link]))).toBe(
        `event at position 0 (${stream} version 1): not in the Merkle log though later events are: written beside the log (in SQL), not through it`,
      );
    });

    it('names the rows missing from a log truncated in SQL', async () => {
      const size = Number(log.checkpoints.at(-1)!.note.split('\n')[1]);
      // The deleted tail held the latest checkpoint too: what the auditor saw last is what tells.
      const trusted = log.checkpoints.at(-1)!.note;
      const message = await tampered((tx) => tx.query(`DELETE FROM events WHERE global_position IN (SELECT global_position FROM audit_leaves WHERE leaf_index >= $1)`, [size - 2]), trusted);
      expect(message).toBe(`the checkpoint trusted (size ${size}) is not in the log: it was truncated or rewritten after it`);
    });

    it('names the checkpoint whose signed note was edited in SQL', async () => {
      const message = await tampered((tx) =>
        tx.query(`UPDATE events SET data = jsonb_set(data, '{note}', to_jsonb(regexp_replace(data ->> 'note', '^([^\\n]*\\n)\\d+', '\\1' || '1'))) WHERE stream_id = 'audit-log' AND stream_version = 2`),
      );
      expect(message).toMatch(/^checkpoint 1 \(size \d+\): /);
    });
  });
});
