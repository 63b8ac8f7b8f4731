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
