import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT } from '../support/cli-process';
import { useGateway } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const fixture = (name: string) => readFileSync(join(REPO_ROOT, 'libs/structure/src/test-support/fixtures', name), 'utf8');

describe(`POST /v1/targets/{id}/scopes over real HTTP on ${backend}`, () => {
  const gw = useGateway();

  it('discovers, selects, pages and refuses with the seed codes in HTTP envelopes', async () => {
    const created = await gw.http.post('/v1/targets', { filename: 'config.yaml', content: fixture('config.yaml') });
    expect(created.status).toBe(201);
    const id = created.body.target_file_id as string;
    const scopes = (body: Record<string, unknown>) => gw.http.post(`/v1/targets/${id}/scopes`, body);
    const found = await scopes({ query: 'port' });
    expect(found).toMatchObject({ status: 200, body: { status: 'candidates', candidates: [{ name: 'port', kind: 'config_item', parent: 'server' }] } });
    const observed = await scopes({ symbol_name: 'server.tls' });
    expect(observed).toMatchObject({ status: 200, body: { status: 'observed', symbol: { name: 'tls', kind: 'object' }, text: 'tls:\n    enabled: true' } });
    const page = await scopes({ observation_id: observed.body.observation_id, offset: 4, include_line_starts: true });
    expect(page).toMatchObject({ status: 200, body: { status: 'scope_page', text: '\n    enabled: true', line_starts: [{ line: 6 }] } });
    expect(await scopes({ symbol_name: 'absent' })).toMatchObject({ status: 404, body: { error: { code: 'not_found', reason: 'SCOPE_NOT_FOUND' } } });
    const saved = await gw.http.post(`/v1/targets/${id}/checkpoints`, {});
    expect(saved.status).toBe(201);
    expect(await scopes({ observation_id: observed.body.observation_id })).toMatchObject({ status: 409, body: { error: { code: 'precondition_failed', reason: 'OBSERVATION_CYCLE_MISMATCH' } } });
    expect(await scopes({ selections: [{ symbol_name: 'server' }, { symbol_name: 'server.port' }] })).toMatchObject({ status: 400, body: { error: { code: 'invalid_arguments', reason: 'OVERLAPPING_SCOPE_SELECTION' }, selection_index: 1 } });
    expect(await scopes({ symbol_name: ' ' })).toMatchObject({ status: 400 });
  });
});
