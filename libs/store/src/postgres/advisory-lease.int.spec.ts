import { randomBytes } from 'node:crypto';
import { localLeaseProvider, type LeaseKey, type LeaseProvider, type WorkspaceLease } from '@palimpsest/workspace/workspace-lease';
import { advisoryLeaseProvider, advisoryLockKey } from '../advisory-lease';
import type { Db } from '../db';
import { eventually } from '../test-support/eventually';
import { asAdmin, databaseUrlOf, useTestDb } from '../test-support/test-db';
import { openPostgresDb } from './pg-db';

/**
 * The lease across machines: two Db instances (two pools, as two machines would have) on one database.
 * Each "machine" has its own local lease; this process's local lease is shared by both, so each pool here
 * is given a machine's local lease with no other holder on it (it grants every request), and the
 * advisory lock alone must make them exclusive.
 */
const machineWithNoOtherHolder = (): LeaseProvider => ({ tryAcquire: async (keys) => ({ keys, release: async () => undefined }) });

const freshKey = (): LeaseKey => ({ dev: '998', ino: BigInt(`0x${randomBytes(7).toString('hex')}`).toString() });

describe('advisoryLeaseProvider on PostgreSQL', () => {
  const store = useTestDb();
  let dbA: Db;
  let dbB: Db;
  let machineA: LeaseProvider;
  let machineB: LeaseProvider;
  const errors: string[] = [];
  const leases: WorkspaceLease[] = [];

  const advisoryLocksHeld = async (): Promise<Array<{ pid: number }>> => {
    const { rows } = await store.db.query<{ name: string }>('SELECT current_database() AS name');
    return asAdmin<{ pid: number }>(
      `SELECT l.pid FROM pg_locks l JOIN pg_database d ON d.oid = l.database WHERE l.locktype = 'advisory' AND l.granted AND d.datname = $1`,
      [rows[0]!.name],
    );
  };
  const take = async (provider: LeaseProvider, keys: LeaseKey[]) => {
    const lease = await provider.tryAcquire(keys);
    if (lease) leases.push(lease);
    return lease;
  };

  beforeAll(async () => {
    const url = await databaseUrlOf(store.db);
    const onError = (e: Error) => errors.push(e.message);
    dbA = await openPostgresDb({ connectionString: url, onError });
    dbB = await openPostgresDb({ connectionString: url, onError });
    machineA = advisoryLeaseProvider(dbA, machineWithNoOtherHolder());
    machineB = advisoryLeaseProvider(dbB, machineWithNoOtherHolder());
  });
  afterEach(async () => {
    for (const lease of leases.splice(0)) await lease.release();
  });
  afterAll(async () => {
    await dbA.close();
    await dbB.close();
  });

  it('is exclusive across two pools while held, free again once released', async () => {
    const key = freshKey();
    const held = await take(machineA, [key]);
    expect(held?.keys).toEqual([key]);
    expect(await take(machineB, [key])).toBeNull();
    await held!.release();
    await held!.release();
    expect(await advisoryLocksHeld()).toEqual([]);
    expect(await take(machineB, [key])).not.toBeNull();
  });

  it('takes all the keys or none: a refused request leaves none of its locks behind', async () => {
    const [k1, k2] = [freshKey(), freshKey()];
    await take(machineB, [k2]);
    expect(await take(machineA, [k1, k2])).toBeNull();
    expect(await take(machineB, [k1])).not.toBeNull();
    expect(await advisoryLocksHeld()).toHaveLength(2);
  });

  it('is released by the server when the holding connection is cut (pg_terminate_backend)', async () => {
    const key = freshKey();
    const held = await take(machineA, [key]);
    const [holder] = await advisoryLocksHeld();
    await asAdmin('SELECT pg_terminate_backend($1)', [holder!.pid]);
    const taken = await eventually(() => machineB.tryAcquire([key]), (lease) => lease !== null);
    expect(taken).not.toBeNull();
    leases.push(taken!);
    await expect(held!.release()).resolves.toBeUndefined(); // the lost connection is destroyed, not pooled
    expect(await dbA.query('SELECT 1 AS one')).toMatchObject({ rows: [{ one: 1 }] });
  });

  it('also takes the machine lease it wraps, and gives both back on release', async () => {
    const key = freshKey();
    const local = localLeaseProvider();
    const held = await take(advisoryLeaseProvider(dbA, local), [key]);
    expect(await local.tryAcquire([key])).toBeNull();
    await held!.release();
    const again = await take(local, [key]);
    expect(again).not.toBeNull();
  });

  it('keys a directory by a stable signed 64-bit number', () => {
    const key = advisoryLockKey({ dev: '64768', ino: '1234567' });
    expect(advisoryLockKey({ dev: '64768', ino: '1234567' })).toBe(key);
    expect(advisoryLockKey({ dev: '64768', ino: '1234568' })).not.toBe(key);
    expect(BigInt(key) >= -(2n ** 63n) && BigInt(key) < 2n ** 63n).toBe(true);
  });
});
