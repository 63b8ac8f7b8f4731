import { tryNamedLease } from '../advisory-lease';
import { eventually } from '../test-support/eventually';
import { asAdmin, databaseUrlOf, useTestDb } from '../test-support/test-db';
import { openPostgresDb } from './pg-db';

/** The projector's leader lease: one holder across pools (processes), freed when its connection ends. */
describe('tryNamedLease on PostgreSQL', () => {
  const store = useTestDb();

  it('is exclusive across pools, released on release, and dies with its backend', async () => {
    const other = await openPostgresDb({ connectionString: await databaseUrlOf(store.db) });
    try {
      const name = `consumer:test-${process.pid}`;
      const held = await tryNamedLease(store.db, name);
      expect(held).not.toBeNull();
      expect(await tryNamedLease(other, name)).toBeNull();
      await held!.release();
      const taken = await tryNamedLease(other, name);
      expect(taken).not.toBeNull();
      expect(await tryNamedLease(store.db, name)).toBeNull();

      // Its backend ends (as when the holder is SIGKILLed): the lock goes with it.
      const { rows } = await taken!.session.query<{ pid: number }>('SELECT pg_backend_pid() AS pid');
      await asAdmin('SELECT pg_terminate_backend($1)', [rows[0]!.pid]);
      const again = await eventually(() => tryNamedLease(store.db, name), (lease) => lease !== null);
      expect(again).not.toBeNull();
      await again!.release();
      await taken!.release(); // idempotent on a dead connection
    } finally {
      await other.close();
    }
  });
});
