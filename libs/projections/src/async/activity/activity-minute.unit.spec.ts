import { minuteOf } from './activity.projection';

describe('the activity projection’s minute buckets', () => {
  it('cuts an ISO instant in UTC with milliseconds to its minute, as parsing it would', () => {
    for (const iso of ['2026-12-07T14:59:59.999Z', '2024-02-29T00:00:00.000Z', '1999-12-31T23:59:30.500Z']) {
      const parsed = new Date(iso);
      parsed.setUTCSeconds(0, 0);
      expect(minuteOf(iso)).toBe(parsed.toISOString());
    }
  });

  it('parses any other form', () => {
    expect(minuteOf('2026-12-07T15:59:59+01:00')).toBe('2026-12-07T14:59:00.000Z');
  });
});
