import { DEFAULT_PROGRESS_MS, progressIntervalFrom } from './progress-interval';

describe('PALIMPSEST_MCP_PROGRESS_MS', () => {
  it('is 5 s unless set, and read as milliseconds', () => {
    expect(progressIntervalFrom({})).toBe(DEFAULT_PROGRESS_MS);
    expect(DEFAULT_PROGRESS_MS).toBe(5_000);
    expect(progressIntervalFrom({ PALIMPSEST_MCP_PROGRESS_MS: '250' })).toBe(250);
  });

  it.each(['0', '9', '1.5', 'soon', '-100'])('refuses %j', (raw) => {
    expect(() => progressIntervalFrom({ PALIMPSEST_MCP_PROGRESS_MS: raw })).toThrow(/PALIMPSEST_MCP_PROGRESS_MS must be an integer >= 10/);
  });
});
