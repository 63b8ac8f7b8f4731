import { TransactionGuard, transactionGuardEnabled } from './transaction-guard';

describe('transactionGuardEnabled', () => {
  it('is on by default and under NODE_ENV=test, off under NODE_ENV=production', () => {
    expect(transactionGuardEnabled({})).toBe(true);
    expect(transactionGuardEnabled({ NODE_ENV: 'test' })).toBe(true);
    expect(transactionGuardEnabled({ NODE_ENV: 'production' })).toBe(false);
  });

  it('stays on for PGlite under NODE_ENV=production, where the mistake would hang the process', () => {
    expect(transactionGuardEnabled({ NODE_ENV: 'production' }, 'pglite')).toBe(true);
    expect(transactionGuardEnabled({ NODE_ENV: 'production', PALIMPSEST_TRANSACTION_GUARD: 'off' }, 'pglite')).toBe(false);
  });

  it('follows PALIMPSEST_TRANSACTION_GUARD either way', () => {
    expect(transactionGuardEnabled({ NODE_ENV: 'production', PALIMPSEST_TRANSACTION_GUARD: 'on' })).toBe(true);
    expect(transactionGuardEnabled({ PALIMPSEST_TRANSACTION_GUARD: 'off' })).toBe(false);
  });

  it('refuses any other value instead of guessing', () => {
    expect(() => transactionGuardEnabled({ PALIMPSEST_TRANSACTION_GUARD: 'yes' })).toThrow(/must be on or off, got "yes"/);
  });
});

describe('TransactionGuard', () => {
  it('enabled: refuses the guarded Db inside run(), and allows it again once run() settled', async () => {
    const guard = new TransactionGuard(true);
    await expect(guard.run(async () => guard.assertOutside('query'))).rejects.toThrow(/db\.query\(\) was called inside db\.transaction\(\)/);
    expect(() => guard.assertOutside('query')).not.toThrow();
  });

  it('enabled: a callback that outlives its transaction is refused nothing afterwards', async () => {
    const guard = new TransactionGuard(true);
    let later: Promise<void> | undefined;
    await guard.run(async () => {
      later = new Promise<void>((resolve) => setTimeout(resolve, 5)).then(() => guard.assertOutside('query'));
    });
    await expect(later).resolves.toBeUndefined();
  });

  it('disabled: checks nothing and returns what the callback returns', async () => {
    const guard = new TransactionGuard(false);
    await expect(guard.run(async () => {
      guard.assertOutside('query');
      return 42;
    })).resolves.toBe(42);
  });
});
