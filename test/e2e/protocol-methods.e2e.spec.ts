import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly } from '@palimpsest/protocol/catalog/operation-spec';
import { CLIENT_LANGUAGES, PROTOCOL_METHODS, PROTOCOL_VERSION } from '@palimpsest/protocol/protocol-methods/protocol-methods';
import { REPO_ROOT, isolatedStore } from '../support/cli-process';
import { JsonLinesClient } from '../support/json-lines-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const sorted = (names: string[]) => [...names].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe(`the protocol's own methods on palimpsest serve --profile read-only (${backend})`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  let s: JsonLinesClient;
  const payload = async (method: string, params?: unknown) => {
    const answer = await s.call(method, params);
    expect(answer.result).toMatchObject({ status: 'ok', schema: 'palimpsest.protocol-result.v1', protocol: PROTOCOL_VERSION });
    return answer.result.payload;
  };

  beforeAll(async () => {
    store = await isolatedStore();
    s = new JsonLinesClient(['--profile', 'read-only'], store.env);
  });
  afterAll(async () => {
    s.end();
    expect((await s.exited).code).toBe(0);
    await store.dispose();
  });

  it('capabilities: the exact capability, every method it serves in sorted order (nothing that writes), the limits', async () => {
    const caps = await payload('protocol/capabilities');
    const reads = CATALOG.filter(servedReadOnly).map((op) => op.name);
    expect(caps).toMatchObject({ capability: 'read_only', profile: 'read-only' });
    expect(caps.methods).toEqual(sorted([...PROTOCOL_METHODS.map((m) => m.name), ...reads, 'workspace/open', 'workspace/status']));
    expect(caps.limits).toMatchObject({ max_frame_bytes: 65_536, max_response_bytes: 1_048_576, max_id_utf8_bytes: 128 });
  });

  it('refuses every write with -32601 operation_not_permitted, and bad protocol params with -32602', async () => {
    for (const op of CATALOG.filter((o) => !servedReadOnly(o))) {
      expect((await s.call(op.name, {})).error).toMatchObject({ code: -32601, data: { code: 'operation_not_permitted', method: op.name } });
    }
    expect((await s.call('protocol/client', {})).error).toMatchObject({ code: -32602, data: { code: 'missing_argument' } });
    expect((await s.call('protocol/client', { language: 'cobol' })).error).toMatchObject({ code: -32602, data: { code: 'invalid_argument_value' } });
    expect((await s.call('protocol/capabilities', { detail: true })).error).toMatchObject({ code: -32602, data: { code: 'unknown_argument' } });
  });

  it('schemas: a request schema per method, from the catalog, that admits a real request and refuses a wrong one', async () => {
    const schemas = await payload('protocol/schemas');
    expect(Object.keys(schemas.methods)).toEqual(sorted([...PROTOCOL_METHODS.map((m) => m.name), ...CATALOG.map((op) => op.name), 'workspace/open', 'workspace/status']));
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    ajv.addKeyword('x-max-utf8-bytes');
    const client = ajv.compile(schemas.methods['protocol/client'].request);
    expect(client({ jsonrpc: '2.0', id: 1, method: 'protocol/client', params: { language: 'rust' } })).toBe(true);
    expect(client({ jsonrpc: '2.0', id: 1, method: 'protocol/client', params: { language: 'cobol' } })).toBe(false);
    const read = ajv.compile(schemas.methods.palimpsest_read_lines.request);
    expect(read({ jsonrpc: '2.0', id: 'a', method: 'palimpsest_read_lines', params: { target_file_id: 't', start_line: 1, extra: 1 } })).toBe(false);
    expect(schemas.methods.palimpsest_read_lines.result).toEqual({ $ref: 'https://palimpsest.dev/schemas/operations/palimpsest_read_lines.result.v1.json' });
    const lastLine = () => JSON.parse(s.lines[s.lines.length - 1]);
    await s.call('palimpsest_submit_edits', {});
    expect(ajv.compile(schemas.error)(lastLine())).toBe(true);
    await s.call('protocol/capabilities');
    expect(ajv.compile(schemas.success)(lastLine())).toBe(true);
  });

  it('instructions: for this protocol version and profile, naming no write', async () => {
    const got = await payload('protocol/instructions');
    expect(got).toMatchObject({ profile: 'read-only', capability: 'read_only' });
    const text = got.instructions.join('\n');
    expect(text).toContain(PROTOCOL_VERSION);
    expect(text).toContain('read-only');
    for (const op of CATALOG.filter((o) => !servedReadOnly(o))) expect(text).not.toContain(op.name);
  });

  it('client: each language\'s generated helpers, byte for byte the files in clients/', async () => {
    for (const language of CLIENT_LANGUAGES) {
      const { files } = await payload('protocol/client', { language });
      expect(files.length).toBeGreaterThan(0);
      for (const file of files) {
        const onDisk = readFileSync(join(REPO_ROOT, file.path), 'utf8');
        expect(file.content).toBe(onDisk);
        expect(file.sha256).toBe(createHash('sha256').update(onDisk).digest('hex'));
      }
    }
  });

  it('query catalog: the read operations, each with its params schema and result schema id', async () => {
    const { queries } = await payload('query/catalog');
    expect(queries.map((q: { name: string }) => q.name)).toEqual(sorted(CATALOG.filter((op) => op.readOnly).map((op) => op.name)));
    expect(queries.find((q: { name: string }) => q.name === 'palimpsest_read_lines')).toMatchObject({
      params: { required: ['target_file_id'] },
      result_schema: 'https://palimpsest.dev/schemas/operations/palimpsest_read_lines.result.v1.json',
    });
  });
});
