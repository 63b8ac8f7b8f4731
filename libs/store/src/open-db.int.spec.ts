import { openDb } from '@palimpsest/store/open-db';
import { readStoreConfig } from '@palimpsest/store/store-config';
import { describeBackend } from '@palimpsest/store/test-support/test-db';

describe(`openDb (${describeBackend})`, () => {
  it('opens in-memory PGlite on request, whatever DATABASE_URL says', async () => {
    const db = await openDb({ memory: true }, readStoreConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, process.cwd()));
    try {
      expect(db.kind).toBe('pglite');
      expect((await db.query('SELECT 40 + 2 AS answer')).rows).toEqual([{ answer: 42 }]);
    } finally {
      await db.close();
      await db.close(); // idempotent
    }
    await expect(db.query('SELECT 1')).rejects.toThrow(/closed/);
  });

  const url = process.env.DATABASE_URL;
  it(url ? 'opens PostgreSQL from DATABASE_URL when no option says otherwise' : 'fails clearly when DATABASE_URL points nowhere', async () => {
    if (url) {
      const db = await openDb({}, readStoreConfig({ DATABASE_URL: url }, process.cwd()));
      try {
        expect(db.kind).toBe('postgres');
        expect((await db.query<{ v: number }>('SELECT current_setting($1)::int AS v', ['server_version_num'])).rows[0]!.v).toBeGreaterThanOrEqual(130000);
      } finally {
        await db.close();
      }
    } else {
      // No server needed to prove the selection: a closed port fails the first query and is reported.
      await expect(openDb({}, readStoreConfig({ DATABASE_URL: 'postgres://nobody@127.0.0.1:1/none' }, process.cwd()))).rejects.toThrow(/ECONNREFUSED/);
    }
  });

  it('names PALIMPSEST_PGLITE_SHARED_BUFFERS when its value is not a size, and applies it when it is', async () => {
    await expect(openDb({ memory: true }, readStoreConfig({ PALIMPSEST_PGLITE_SHARED_BUFFERS: 'lots' }, process.cwd()))).rejects.toThrow(
      'PALIMPSEST_PGLITE_SHARED_BUFFERS must be a size such as 32MB (a whole number and kB, MB or GB), not "lots"',
    );
    const db = await openDb({ memory: true }, readStoreConfig({ PALIMPSEST_PGLITE_SHARED_BUFFERS: '24MB' }, process.cwd()));
    try {
      expect((await db.query('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '24MB' }]);
    } finally {
      await db.close();
    }
    const defaults = await openDb({ memory: true }, readStoreConfig({}, process.cwd()));
    try {
      expect((await defaults.query('SHOW shared_buffers')).rows).toEqual([{ shared_buffers: '32MB' }]);
    } finally {
      await defaults.close();
    }
  });

  it('prefers an explicit databaseUrl over everything else', async () => {
    await expect(openDb({ databaseUrl: 'postgres://nobody@127.0.0.1:1/none', memory: true })).rejects.toThrow(/ECONNREFUSED/);
  });
});
