import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { expectPublishedResult } from '@palimpsest/application/file-tools/test-support/published-result';
import { isolatedStore, runCli } from '../support/cli-process';
import { HttpClient } from '../support/http-client';
import { seedTokens, startApi, type ApiProcess } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`the file read tools over real HTTP and the CLI on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let dir: string;
  let env: NodeJS.ProcessEnv;
  let api: ApiProcess;
  let http: HttpClient;

  beforeAll(async () => {
    store = await isolatedStore();
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-e2e-http-files-'));
    mkdirSync(join(dir, 'src'));
    writeFileSync(join(dir, 'src/a.ts'), 'const a = 1;\nconst b = 2;\n');
    writeFileSync(join(dir, 'evil.txt'), `${'a'.repeat(40)}!\n`);
    env = { ...store.env, PALIMPSEST_WORKSPACE_ROOT: dir };
    const { token } = (await seedTokens(env, { reader: 'read' })).reader!;
    api = await startApi(env, ['--no-local-token']);
    http = new HttpClient(api.url, token);
  }, 120_000);
  afterAll(async () => {
    expect((await api.stop()).code).toBe(0);
    rmSync(dir, { recursive: true, force: true });
    await store.dispose();
  });

  it('GET /v1/files, /v1/files/content and /v1/files/search answer with the seed fields (query values coerced)', async () => {
    const list = await http.get('/v1/files', { recursive: true, glob: '**/*.ts' });
    expect(list.status).toBe(200);
    expect(list.body).toEqual({ status: 'ok', path: '.', entries: [{ path: 'src/a.ts', type: 'file', size: 26 }], truncated: false });
    const read = await http.get('/v1/files/content', { path: 'src/a.ts', offset: 2 });
    expect(read.status).toBe(200);
    expect(read.body).toEqual({ status: 'ok', path: 'src/a.ts', content: 'const b = 2;\n', truncated: false, totalLines: 2 });
    const found = await http.get('/v1/files/search', { pattern: 'CONST B', caseInsensitive: true, maxResults: 5 });
    expect(found.status).toBe(200);
    expect(found.body).toEqual({ status: 'ok', matches: [{ path: 'src/a.ts', line: 2, text: 'const b = 2;' }], truncated: false });
    for (const [name, r] of [['list_files', list], ['read_file', read], ['grep', found]] as const) expectPublishedResult(name, r.body);
  });

  it('maps refusals to HTTP statuses: PATH_NOT_FOUND 404, PATH_ESCAPE and TOOL_TIMEOUT 400', async () => {
    const missing = await http.get('/v1/files/content', { path: 'nope.ts' });
    expect(missing.status).toBe(404);
    expect(missing.body).toMatchObject({ status: 'not_found', code: 'PATH_NOT_FOUND' });
    const escape = await http.get('/v1/files', { path: '../etc' });
    expect(escape.status).toBe(400);
    expect(escape.body).toMatchObject({ status: 'invalid_argument', code: 'PATH_ESCAPE' });
    const slow = await http.get('/v1/files/search', { pattern: '(a+)+$' });
    expect(slow.status).toBe(400);
    expect(slow.body).toMatchObject({ code: 'TOOL_TIMEOUT' });
  });

  it('palimpsest call runs the tools through the gateway that holds the store', async () => {
    const r = await runCli(['call', 'grep', '--args', JSON.stringify({ pattern: 'const a' })], { env });
    expect(r.code).toBe(0);
    expect(JSON.parse(r.stdout)).toEqual({ status: 'ok', matches: [{ path: 'src/a.ts', line: 1, text: 'const a = 1;' }], truncated: false });
  });
});
