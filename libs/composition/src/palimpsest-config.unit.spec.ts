import { join } from 'node:path';
import { keptPaths, readConfig } from './palimpsest-config';

describe('readConfig', () => {
  const cwd = '/srv/project';

  it('gives every default when nothing is set', () => {
    const config = readConfig({}, cwd);
    expect(config).toMatchObject({
      cwd,
      workspaceRoot: null,
      leaseWaitMs: 10_000,
      grepTimeoutMs: 1_000,
      syncOnSave: false,
      workspacePublish: 'on_accept',
      strictObservation: false,
      candidates: { ttlMs: 86_400_000, approvalWaitMs: 90_000, approvalPollMs: 1_000, policyFile: null },
      commandPath: '/usr/bin:/bin',
      projectionLagDegradedS: 30,
    });
    expect(config.store).toMatchObject({
      databaseUrl: null,
      dataDir: join(cwd, '.palimpsest', 'data'),
      dataDirGiven: false,
      pgliteSharedBuffers: undefined,
      pgliteImage: undefined,
      transactionGuard: { postgres: true, pglite: true },
      postgres: { poolMax: 10, timeouts: { connectTimeoutMs: 5_000, statementTimeoutMs: 10_000, queryTimeoutMs: 15_000 } },
    });
  });

  it('reads each variable with its documented meaning', () => {
    const config = readConfig(
      {
        DATABASE_URL: 'postgres://db/p',
        PALIMPSEST_DATA_DIR: 'var/store',
        PALIMPSEST_WORKSPACE_ROOT: '/work/tree',
        PALIMPSEST_LEASE_WAIT_MS: '0',
        PALIMPSEST_GREP_TIMEOUT_MS: '30000',
        PALIMPSEST_WORKSPACE_SYNC_ON_SAVE: 'Yes',
        PALIMPSEST_WORKSPACE_PUBLISH: 'on_save',
        PALIMPSEST_STRICT_OBSERVATION_MODE: '1',
        PALIMPSEST_POLICY_FILE: 'policy.yaml',
        APPROVAL_WAIT_MS: '500',
        PATH: '/opt/bin',
        PALIMPSEST_PG_POOL_MAX: '3',
        NODE_ENV: 'production',
      },
      cwd,
    );
    expect(config).toMatchObject({
      workspaceRoot: '/work/tree',
      leaseWaitMs: 0,
      grepTimeoutMs: 30_000,
      syncOnSave: true,
      workspacePublish: 'on_save',
      strictObservation: true,
      candidates: { approvalWaitMs: 500, policyFile: 'policy.yaml' },
      commandPath: '/opt/bin',
    });
    expect(config.store).toMatchObject({
      databaseUrl: 'postgres://db/p',
      dataDir: join(cwd, 'var/store'),
      dataDirGiven: true,
      transactionGuard: { postgres: false, pglite: true },
      postgres: { poolMax: 3 },
    });
    expect(keptPaths(config).map((k) => k.path)).toEqual(expect.arrayContaining([join(cwd, 'var/store'), join(cwd, 'policy.yaml')]));
  });

  it.each([
    ['PALIMPSEST_WORKSPACE_PUBLISH', 'always'],
    ['PALIMPSEST_STRICT_OBSERVATION_MODE', 'yes'],
    ['PALIMPSEST_LEASE_WAIT_MS', 'soon'],
    ['PALIMPSEST_CANDIDATE_TTL_MS', '0'],
    ['PALIMPSEST_PG_POOL_MAX', 'many'],
    ['PALIMPSEST_TRANSACTION_GUARD', 'maybe'],
  ])('refuses an invalid %s, naming it', (name, value) => {
    expect(() => readConfig({ [name]: value }, cwd)).toThrow(name);
  });
});
