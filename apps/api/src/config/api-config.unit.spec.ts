import { apiConfigFrom, corsOriginsFrom } from './api-config';

describe('PALIMPSEST_CORS_ORIGINS', () => {
  it('is off (no origins) unless set', () => {
    expect(apiConfigFrom({}).corsOrigins).toEqual([]);
    expect(corsOriginsFrom(' , ')).toEqual([]);
  });

  it('reads a comma-separated list of origins, trimmed and without duplicates', () => {
    const raw = ' https://app.example.com, http://localhost:5173,https://app.example.com ';
    expect(apiConfigFrom({ PALIMPSEST_CORS_ORIGINS: raw }).corsOrigins).toEqual(['https://app.example.com', 'http://localhost:5173']);
  });

  it.each(['*', 'app.example.com', 'https://app.example.com/', 'https://app.example.com/path', 'ftp://files.example.com', 'https://APP.example.com'])(
    'refuses %j, which is not exactly an origin',
    (entry) => {
      expect(() => corsOriginsFrom(entry)).toThrow(/is not an origin/);
    },
  );
});

describe('LOG_FORMAT', () => {
  it('is pretty on a terminal and JSON otherwise, unless LOG_FORMAT says', () => {
    expect(apiConfigFrom({}, {}, true).logFormat).toBe('pretty');
    expect(apiConfigFrom({}, {}, false).logFormat).toBe('json');
    expect(apiConfigFrom({ LOG_FORMAT: 'json' }, {}, true).logFormat).toBe('json');
    expect(apiConfigFrom({ LOG_FORMAT: 'pretty' }, {}, false).logFormat).toBe('pretty');
    expect(() => apiConfigFrom({ LOG_FORMAT: 'xml' }, {}, true)).toThrow(/LOG_FORMAT must be json or pretty/);
  });
});

describe('MCP over HTTP settings', () => {
  it('defaults to stateful sessions, 30 minutes idle, 256 at once, progress every 5 s', () => {
    expect(apiConfigFrom({}).mcp).toEqual({ stateless: false, sessionIdleMs: 1_800_000, maxSessions: 256, progressMs: 5_000 });
  });

  it('reads PALIMPSEST_MCP_* and refuses what it cannot read', () => {
    const env = { PALIMPSEST_MCP_STATELESS: '1', PALIMPSEST_MCP_SESSION_IDLE_MS: '2000', PALIMPSEST_MCP_MAX_SESSIONS: '3', PALIMPSEST_MCP_PROGRESS_MS: '250' };
    expect(apiConfigFrom(env).mcp).toEqual({ stateless: true, sessionIdleMs: 2000, maxSessions: 3, progressMs: 250 });
    expect(apiConfigFrom({ PALIMPSEST_MCP_STATELESS: '0' }, { mcpStateless: true }).mcp.stateless).toBe(true); // a flag wins
    expect(() => apiConfigFrom({ PALIMPSEST_MCP_STATELESS: 'yes' })).toThrow(/PALIMPSEST_MCP_STATELESS must be 1 or 0/);
    expect(() => apiConfigFrom({ PALIMPSEST_MCP_MAX_SESSIONS: '0' })).toThrow(/PALIMPSEST_MCP_MAX_SESSIONS must be an integer >= 1/);
    expect(() => apiConfigFrom({ PALIMPSEST_MCP_PROGRESS_MS: '5' })).toThrow(/PALIMPSEST_MCP_PROGRESS_MS must be an integer >= 10/);
  });
});
