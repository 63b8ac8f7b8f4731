import { readStoreConfig } from './store-config';

describe('readStoreConfig: the read replica', () => {
  it('is off unless named, and named only beside DATABASE_URL', () => {
    expect(readStoreConfig({ DATABASE_URL: 'postgres://db/app' }, '/srv').readReplicaUrl).toBeNull();
    expect(readStoreConfig({ DATABASE_URL: 'postgres://db/app', PALIMPSEST_READ_REPLICA_URL: 'postgres://replica/app' }, '/srv').readReplicaUrl).toBe('postgres://replica/app');
    expect(() => readStoreConfig({ PALIMPSEST_READ_REPLICA_URL: 'postgres://replica/app' }, '/srv')).toThrow(/set DATABASE_URL too/);
  });
});
