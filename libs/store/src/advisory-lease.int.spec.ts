import { randomBytes } from 'node:crypto';
import { localLeaseProvider, type LeaseKey } from '@palimpsest/workspace/workspace-lease';
import { advisoryLeaseProvider } from './advisory-lease';
import { describeBackend, useTestDb } from './test-support/test-db';

/** The lease on whichever backend the environment selects (across pools: postgres/advisory-lease.int.spec.ts). */
describe(`advisoryLeaseProvider (${describeBackend})`, () => {
  const store = useTestDb();
  const key = (): LeaseKey => ({ dev: '997', ino: BigInt(`0x${randomBytes(7).toString('hex')}`).toString() });

  it(describeBackend === 'pglite' ? 'is the machine lease itself: the embedded store has one process' : 'wraps the machine lease', () => {
    const inner = localLeaseProvider();
    const provider = advisoryLeaseProvider(store.db, inner);
    expect(provider === inner).toBe(describeBackend === 'pglite');
  });

  it('is exclusive within the process until released', async () => {
    const provider = advisoryLeaseProvider(store.db, localLeaseProvider());
    const k = key();
    const held = await provider.tryAcquire([k]);
    expect(held).not.toBeNull();
    expect(await provider.tryAcquire([k])).toBeNull();
    await held!.release();
    const again = await provider.tryAcquire([k]);
    expect(again).not.toBeNull();
    await again!.release();
  });
});
