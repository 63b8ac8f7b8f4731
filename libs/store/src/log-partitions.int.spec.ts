import { cpSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { chainLink, eventDigest, GENESIS_LINK } from '@palimpsest/core/audit/event-chain';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { StreamVersionConflictError } from '@palimpsest/store/errors';
import { archiveBefore, archiveEpoch, beginArchive, LogArchiveRefusedError } from '@palimpsest/store/log-archive';
import { attachedEpochs, currentEpoch, listLogPartitions, rollLog } from '@palimpsest/store/log-partitions';
import { readAll } from '@palimpsest/store/read-all';
import { readStream } from '@palimpsest/store/read-stream';
import { streamExists } from '@palimpsest/store/stream-lookups';
import { currentStreamVersion } from '@palimpsest/store/stream-version';
import { deferred, eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvent, sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { createTestDb, describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { defaultMigrationsDir, migrate, readMigrations } from '@palimpsest/store/migrate';
import type { Db } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';

/** The epoch (partition) each of a stream's events went to. */
async function epochsOf(db: Db, stream: string): Promise<number[]> {
  const { rows } = await db.query<{ epoch: number }>('SELECT epoch FROM events WHERE stream_id = $1 ORDER BY stream_version', [stream]);
  return rows.map((r) => Number(r.epoch));
}

/** Every event of the log, attached and archived, through readAll's pages. */
async function wholeLog(db: Db): Promise<StoredEvent[]> {
  const out: StoredEvent[] = [];
  for (;;) {
    const last = out[out.length - 1];
    const page = await readAll(db, { after: last ? { xid: last.transactionXid, position: last.globalPosition } : null, limit: 97 });
    if (page.length === 0) return out;
    out.push(...page);
  }
}

/**
 * The whole log once readAll has caught up with every committed event (on PostgreSQL it holds back what
 * is above the cluster's oldest running transaction, and other sessions of the server may be running).
 */
async function settledLog(db: Db): Promise<StoredEvent[]> {
  const { rows } = await db.query<{ n: string }>('SELECT count(DISTINCT global_position) AS n FROM (SELECT global_position FROM events UNION ALL SELECT global_position FROM events_archive) e');
  const log = await eventually(() => wholeLog(db), (events) => events.length === Number(rows[0]!.n), { timeoutMs: 30_000 });
  expect(log).toHaveLength(Number(rows[0]!.n));
  return log;
}

/** Appends one event at the stream's current version, retrying on a lost race; returns its version. */
async function appendNext(db: Db, stream: string, n: number): Promise<number> {
  for (;;) {
    try {
      return await db.transaction(async (tx) => (await appendToStream(tx, stream, await currentStreamVersion(tx, stream), [sampleEvent(n)])).nextExpectedVersion);
    } catch (error) {
      if (!(error instanceof StreamVersionConflictError)) throw error;
    }
  }
}

describe(`the partitioned log (${describeBackend})`, () => {
  const store = useTestDb();

  it('a roll moves appends to a new partition; a stale append across the boundary conflicts, and the stream goes on', async () => {
    const stream = uniqueStreamId();
    await appendToStream(store.db, stream, 0, sampleEvents(2));
    const before = await currentEpoch(store.db);
    const epoch = await rollLog(store.db);
    expect(epoch).toBe(before + 1);
    expect(await attachedEpochs(store.db)).toContain(epoch);

    // Version 2 is in the old partition; an append expecting 1 would insert version 2 into the new one.
    await expect(appendToStream(store.db, stream, 1, [sampleEvent(9)])).rejects.toBeInstanceOf(StreamVersionConflictError);
    await appendToStream(store.db, stream, 2, [sampleEvent(3)]);
    expect(await epochsOf(store.db, stream)).toEqual([before, before, epoch]);
    expect((await readStream(store.db, stream)).map((e) => e.streamVersion)).toEqual([1, 2, 3]);
  });

  it('two writers racing on one version across a roll: one wins, the other conflicts', async () => {
    const stream = uniqueStreamId();
    await appendToStream(store.db, stream, 0, sampleEvents(1));
    if (store.db.kind === 'postgres') {
      // A appends version 2 and stays open; the roll waits for A; B, which read version 1, waits behind the roll.
      const aAppended = deferred();
      const release = deferred();
      const a = store.db.transaction(async (tx) => {
        await appendToStream(tx, stream, 1, [sampleEvent(20)]);
        aAppended.resolve();
        await release.promise;
      });
      await aAppended.promise;
      const roll = rollLog(store.db, { lockTimeoutMs: 60_000 });
      expect(await eventually(() => waitingOn(store.db, 'LOCK TABLE ONLY events'), (n) => n === 1)).toBe(1);
      const b = appendToStream(store.db, stream, 1, [sampleEvent(21)]);
      expect(await eventually(() => waitingOn(store.db, 'INSERT INTO events'), (n) => n === 1)).toBe(1);
      release.resolve();
      await a;
      const epoch = await roll;
      await expect(b).rejects.toBeInstanceOf(StreamVersionConflictError);
      expect(await epochsOf(store.db, stream)).toEqual([epoch - 1, epoch - 1]);
    } else {
      // PGlite runs transactions one after another: the racer that decided on version 1 comes after the roll.
      await appendToStream(store.db, stream, 1, [sampleEvent(20)]);
      const epoch = await rollLog(store.db);
      await expect(appendToStream(store.db, stream, 1, [sampleEvent(21)])).rejects.toBeInstanceOf(StreamVersionConflictError);
      expect(await epochsOf(store.db, stream)).toEqual([epoch - 1, epoch - 1]);
    }
    expect((await readStream(store.db, stream)).map((e) => e.data)).toEqual([{ n: 1 }, { n: 20 }]);
  });

  it('detaches and archives an old partition while writers run; every event is read once, archived ones from the archive', async () => {
    const dormant = uniqueStreamId('dormant');
    await appendToStream(store.db, dormant, 0, sampleEvents(3));
    const writers = Array.from({ length: 4 }, () => uniqueStreamId('writer'));
    let stop = false;
    let written = 0;
    const running = writers.map(async (stream, w) => {
      for (let i = 0; !stop; i++) {
        await appendNext(store.db, stream, w * 1000 + i);
        written++;
        // PGlite answers in microtasks: let timers (and the archive's turn) in between appends.
        await new Promise((resolve) => setImmediate(resolve));
      }
    });
    const closing = await currentEpoch(store.db);
    let archived: Awaited<ReturnType<typeof archiveBefore>>;
    try {
      expect(await eventually(async () => written, (n) => n > 8)).toBeGreaterThan(8);
      await rollLog(store.db);
      // Every event of the closed epoch committed before the roll did: the bound lies after all of them.
      const { rows } = await store.db.query<{ p: string }>('SELECT max(global_position) AS p FROM events');
      const position = Number(rows[0]!.p) + 1;
      const writtenBefore = written;
      archived = await archiveBefore(store.db, { beforePosition: position });
      expect(await eventually(async () => written, (n) => n > writtenBefore + 8)).toBeGreaterThan(writtenBefore + 8);
    } finally {
      stop = true;
      await Promise.all(running);
    }

    expect(archived.map((a) => a.epoch)).toContain(closing);
    expect(archived.every((a) => a.detachedAt !== null && a.table.startsWith('palimpsest_archive.'))).toBe(true);
    expect(await attachedEpochs(store.db)).not.toContain(closing);
    const log = await settledLog(store.db);
    expect(new Set(log.map((e) => e.globalPosition)).size).toBe(log.length);
    for (const stream of writers) {
      const events = await readStream(store.db, stream);
      expect(events.map((e) => e.streamVersion)).toEqual(events.map((_, i) => i + 1));
      expect(events.some((e) => e.archived) && events.some((e) => !e.archived)).toBe(true);
    }
    expect(log.filter((e) => writers.includes(e.streamId))).toHaveLength(written);

    // The dormant stream is wholly archived: it still exists, is read from the archive, and an append goes on from its archived head.
    expect(await readStream(store.db, dormant)).toEqual(expect.arrayContaining([expect.objectContaining({ streamVersion: 3, archived: true })]));
    expect(await streamExists(store.db, dormant)).toBe(true);
    expect(await currentStreamVersion(store.db, dormant)).toBe(3);
    await expect(appendToStream(store.db, dormant, 0, sampleEvents(1))).rejects.toBeInstanceOf(StreamVersionConflictError);
    await appendToStream(store.db, dormant, 3, [sampleEvent(4)]);
    const chain = await store.db.query<{ v: number; link: string }>(
      `SELECT stream_version AS v, encode(chain_hash, 'hex') AS link FROM (SELECT * FROM events UNION ALL SELECT * FROM events_archive) e
        WHERE stream_id = $1 ORDER BY stream_version`,
      [dormant],
    );
    expect(chain.rows.map((r) => Number(r.v))).toEqual([1, 2, 3, 4]);
    let previous = GENESIS_LINK;
    const expected = (await readStream(store.db, dormant)).map((e) => (previous = chainLink(previous, eventDigest(e))));
    expect(chain.rows.map((r) => r.link)).toEqual(expected);
  });

  it('while an epoch is half archived every read gives its events once, and the next archive finishes it', async () => {
    const stream = uniqueStreamId();
    await appendToStream(store.db, stream, 0, sampleEvents(2));
    const epoch = await currentEpoch(store.db);
    await rollLog(store.db);
    for (const older of (await attachedEpochs(store.db)).filter((e) => e < epoch)) await archiveEpoch(store.db, older);
    await appendToStream(store.db, stream, 2, [sampleEvent(3)]);
    const before = await settledLog(store.db);

    await beginArchive(store.db, epoch);
    expect(await attachedEpochs(store.db)).toContain(epoch);
    // Which copy of a repeated event a page keeps (and so its `archived`) depends on where the page ends: compare without it.
    const plain = (log: StoredEvent[]) => log.map(({ archived: _archived, ...event }) => event);
    expect(plain(await settledLog(store.db))).toEqual(plain(before));
    expect((await readStream(store.db, stream)).map((e) => e.streamVersion)).toEqual([1, 2, 3]);
    expect((await listLogPartitions(store.db)).archived.find((a) => a.epoch === epoch)?.detachedAt).toBeNull();

    const finished = await archiveBefore(store.db, { beforePosition: 1 });
    expect(finished.map((a) => a.epoch)).toEqual([epoch]);
    expect(finished[0]!.detachedAt).not.toBeNull();
    expect(await attachedEpochs(store.db)).not.toContain(epoch);
    expect((await settledLog(store.db)).map((e) => e.globalPosition)).toEqual(before.map((e) => e.globalPosition));
    const events = await readStream(store.db, stream);
    expect(events.map((e) => [e.streamVersion, e.archived === true])).toEqual([[1, true], [2, true], [3, false]]);
  });

  it('refuses to archive the current epoch or out of order, saying what to do', async () => {
    const current = await currentEpoch(store.db);
    await expect(archiveEpoch(store.db, current)).rejects.toThrow(/takes the appends.*roll the log first/);
    await appendToStream(store.db, uniqueStreamId(), 0, sampleEvents(1));
    await rollLog(store.db);
    await rollLog(store.db);
    const attached = await attachedEpochs(store.db);
    const newerClosed = attached[attached.length - 2]!;
    const refusal = archiveEpoch(store.db, newerClosed);
    await expect(refusal).rejects.toBeInstanceOf(LogArchiveRefusedError);
    await expect(refusal).rejects.toThrow(/archived oldest first/);
    const listed = await listLogPartitions(store.db);
    expect(listed.currentEpoch).toBe(current + 2);
    expect(listed.attached.find((p) => p.current)?.epoch).toBe(current + 2);
  });
});

/** How many sessions of this database wait for a lock in a statement starting with `text`. */
async function waitingOn(db: Db, text: string): Promise<number> {
  const { rows } = await db.query<{ n: string }>(
    `SELECT count(*) AS n FROM pg_stat_activity WHERE datname = current_database() AND wait_event_type = 'Lock' AND position($1 in query) > 0`,
    [text],
  );
  return Number(rows[0]!.n);
}

describe(`the partitioning of an existing log (${describeBackend})`, () => {
  it('keeps its events as epoch 0, positions go on after them, and their versions stay taken', async () => {
    const testDb = await createTestDb({ migrate: false });
    const dir = mkdtempSync(join(tmpdir(), 'palimpsest-partition-'));
    try {
      const db = testDb.db;
      for (const file of readMigrations(defaultMigrationsDir()).filter((m) => m.version < '0035')) {
        cpSync(join(defaultMigrationsDir(), `${file.name}.sql`), join(dir, `${file.name}.sql`));
      }
      await migrate(db, { dir });
      const stream = uniqueStreamId('old');
      const { rows } = await db.query<{ p: number }>(
        `INSERT INTO events (stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at, chain_hash)
         SELECT $1, v, 'Old', 1, jsonb_build_object('v', v), '{}', '2024-01-01T00:00:00Z', sha256(int8send(v))
         FROM generate_series(1, 3) AS v RETURNING global_position AS p`,
        [stream],
      );
      expect((await migrate(db)).applied[0]).toBe('0035_partitioned_log');
      expect(await epochsOf(db, stream)).toEqual([0, 0, 0]);
      await expect(appendToStream(db, stream, 2, [sampleEvent(9)])).rejects.toBeInstanceOf(StreamVersionConflictError);
      const next = await appendToStream(db, stream, 3, [sampleEvent(4)]);
      expect(next.positions[0]).toBeGreaterThan(Math.max(...rows.map((r) => Number(r.p))));
      await expect(db.query('DELETE FROM events_e0 WHERE false')).rejects.toMatchObject({ code: '23001' });
      await expect(db.query('UPDATE events SET data = data WHERE false')).rejects.toMatchObject({ code: '23001' });
    } finally {
      rmSync(dir, { recursive: true, force: true });
      await testDb.dispose();
    }
  });
});
