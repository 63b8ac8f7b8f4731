import { readStoreConfig } from './store-config';

describe('readStoreConfig: the read replica', () => {
  it('is off unless named, and named only beside DATABASE_URL', () => {
    expect(readStoreConfig({ DATABASE_URL: 'postgres://db/app' }, '/srv').readReplicaUrl).toBeNull();
    expect(readStoreConfig({ DATABASE_URL: 'postgres://db/app', PALIMPSEST_READ_REPLICA_URL: 'postgres://replica/app' }, '/srv').readReplicaUrl).toBe('postgres://replica/app');
    expect(() => readStoreConfig({ PALIMPSEST_READ_REPLICA_URL: 'postgres://replica/app' }, '/srv')).toThrow(/set DATABASE_URL too/);
  });
});

describe('readStoreConfig: the embedded PostgreSQL WebAssembly tier', () => {
  it('leaves the default to the store, takes either tier by name, and refuses anything else by naming both', () => {
    expect(readStoreConfig({}, '/srv').pgliteWasm).toBeUndefined();
    expect(readStoreConfig({ PALIMPSEST_PGLITE_WASM: 'optimized' }, '/srv').pgliteWasm).toBe('optimized');
    expect(readStoreConfig({ PALIMPSEST_PGLITE_WASM: 'baseline' }, '/srv').pgliteWasm).toBe('baseline');
    expect(() => readStoreConfig({ PALIMPSEST_PGLITE_WASM: 'turbo' }, '/srv')).toThrow(/PALIMPSEST_PGLITE_WASM must be one of baseline, optimized, got "turbo"/);
  });
});
