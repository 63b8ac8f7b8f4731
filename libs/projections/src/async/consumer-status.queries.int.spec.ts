import { uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { holdRebuildLock } from '../rebuild/online/rebuild-lock';
import { consumerStatuses } from './consumer-status.queries';

describe(`consumer status while an online rebuild runs (${describeBackend})`, () => {
  const store = useTestDb();

  it('is rebuilding exactly while the rebuild of that name holds its lock', async () => {
    const { db } = store;
    const name = uniqueStreamId('status');
    const state = async () => (await consumerStatuses(db, db.kind, [{ name, kind: 'projection' }], 'this-process'))[0]!.state;
    expect(await state()).toBe('stopped');
    const release = await holdRebuildLock(db, name);
    expect(release).not.toBeNull();
    try {
      expect(await state()).toBe('rebuilding');
      // Another name is not affected.
      expect((await consumerStatuses(db, db.kind, [{ name: `${name}-other`, kind: 'projection' }], 'this-process'))[0]!.state).toBe('stopped');
    } finally {
      await release!();
    }
    expect(await state()).toBe('stopped');
  });
});
