import { projectorBatchSize, projectorEnabled, projectorLeasePeriodMs } from './projector-config';

describe('projector configuration', () => {
  it('runs unless PALIMPSEST_PROJECTOR=off', () => {
    expect(projectorEnabled({})).toBe(true);
    expect(projectorEnabled({ PALIMPSEST_PROJECTOR: 'OFF' })).toBe(false);
    expect(projectorEnabled({ PALIMPSEST_PROJECTOR: 'on' })).toBe(true);
  });

  it('takes a batch size from 1 to 10000, 500 by default, and refuses anything else by name', () => {
    expect(projectorBatchSize({})).toBe(500);
    expect(projectorBatchSize({ PALIMPSEST_PROJECTOR_BATCH_SIZE: '2000' })).toBe(2000);
    for (const bad of ['0', '-1', '1.5', 'many', '10001']) {
      expect(() => projectorBatchSize({ PALIMPSEST_PROJECTOR_BATCH_SIZE: bad })).toThrow(/PALIMPSEST_PROJECTOR_BATCH_SIZE must be an integer from 1 to 10000/);
    }
  });

  it('takes a shard lease period from 1 to 600 seconds, 10 by default, and refuses anything else by name', () => {
    expect(projectorLeasePeriodMs({})).toBe(10_000);
    expect(projectorLeasePeriodMs({ PALIMPSEST_PROJECTOR_LEASE_S: '2.5' })).toBe(2_500);
    for (const bad of ['0', '-1', 'long', '601']) {
      expect(() => projectorLeasePeriodMs({ PALIMPSEST_PROJECTOR_LEASE_S: bad })).toThrow(/PALIMPSEST_PROJECTOR_LEASE_S must be a number of seconds from 1 to 600/);
    }
  });
});
