import { UsageError } from '../cli-errors';
import { boundOf } from './log.command';

describe('palimpsest log archive --before', () => {
  it('reads a global position or an ISO 8601 time', () => {
    expect(boundOf('120000')).toEqual({ beforePosition: 120000 });
    expect(boundOf('2026-01-01T00:00:00+01:00')).toEqual({ beforeTime: '2025-12-31T23:00:00.000Z' });
    expect(boundOf('2026-03-01')).toEqual({ beforeTime: '2026-03-01T00:00:00.000Z' });
  });

  it('refuses anything else with exit code 2 and an example of each', () => {
    for (const bad of ['last month', '0', '-5', '12.5', '2026-13-45', '']) {
      expect(() => boundOf(bad)).toThrow(UsageError);
    }
    expect(() => boundOf('yesterday')).toThrow(/neither a global position \(1 or more\) nor an ISO 8601 time: give e.g. 120000 or 2026-01-01T00:00:00Z/);
  });
});
