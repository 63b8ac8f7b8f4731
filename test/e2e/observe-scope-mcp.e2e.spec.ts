import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { REPO_ROOT, isolatedStore, runCli } from '../support/cli-process';
import { connectMcp, useMcp } from '../support/mcp-client';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const fixture = (name: string) => readFileSync(join(REPO_ROOT, 'libs/structure/src/test-support/fixtures', name), 'utf8');

describe(`palimpsest_observe_scope over real MCP stdio on ${backend}`, () => {
  const session = useMcp();

  it('discovery → exact selection → paging of a large scope', async () => {
    const body = Array.from({ length: 600 }, (_, i) => `  const v${i} = '😀 ${i}';`).join('\n');
    const content = `${fixture('sample.ts')}\nexport function big(): void {\n${body}\n}\n`;
    const created = await session.mcp.call('palimpsest_initialize_target', { filename: 'sample.ts', content });
    const id = created.result.target_file_id;
    const found = await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, query: 'bi', kind: 'function' });
    expect(found).toMatchObject({ isError: false, result: { status: 'candidates', observation_id: null, total_candidates: 1, candidates: [{ name: 'big', kind: 'function', parent: null }] } });
    const amb = await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'greet' });
    expect(amb.result).toMatchObject({ status: 'ambiguous', code: 'AMBIGUOUS_SCOPE_SELECTION', total_candidates: 2 });
    const none = await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'missing' });
    expect(none).toMatchObject({ isError: true, result: { status: 'not_found', code: 'SCOPE_NOT_FOUND' } });
    const observed = await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'big', max_chars: 5000 });
    expect(observed.result).toMatchObject({ status: 'observed', target_version: 0, max_chars: 5000, truncated: true, next_offset: 5000 });
    let text = observed.result.text as string;
    let offset: number | null = observed.result.next_offset;
    while (offset !== null) {
      const page = await session.mcp.call('palimpsest_observe_scope', { target_file_id: id, observation_id: observed.result.observation_id, offset, include_line_starts: true });
      expect(page.result).toMatchObject({ status: 'scope_page', observation_id: observed.result.observation_id });
      text += page.result.text;
      offset = page.result.next_offset;
    }
    expect(text).toBe([...content].slice(observed.result.scope_start, observed.result.scope_end).join(''));
    expect(text.startsWith('export function big(): void {')).toBe(true);
  });

});

describe(`palimpsest_observe_scope in compact mode over real MCP stdio on ${backend}`, () => {
  it('projects candidates and batches per the seed table, and keeps single observations whole', async () => {
    const store = await isolatedStore();
    const mcp = await connectMcp({ ...store.env, PALIMPSEST_MCP_RESPONSE_MODE: 'compact' });
    try {
      const { tools } = await mcp.client.listTools();
      expect(tools.find((t) => t.name === 'palimpsest_observe_scope')?.description).toContain('Compact:');
      const id = (await mcp.call('palimpsest_initialize_target', { filename: 'guide.md', content: fixture('guide.md') })).result.target_file_id;
      const found = await mcp.call('palimpsest_observe_scope', { target_file_id: id, kind: 'section' });
      expect(found.result).toMatchObject({ status: 'candidates', presentation: { mode: 'compact', omitted: ['candidate_details'] } });
      expect(Object.keys(found.result.candidates[0]).sort()).toEqual(['end_line', 'kind', 'name', 'parent', 'start_line']);
      expect(found.text).not.toContain(', ');
      const batch = await mcp.call('palimpsest_observe_scope', { target_file_id: id, selections: [{ symbol_name: 'Appendix.Install' }, { symbol_name: 'Guide 😀.Install' }] });
      expect(batch.result).toMatchObject({ status: 'observed_batch', presentation: { mode: 'compact', omitted: ['duplicate_page_metadata'] } });
      expect(Object.keys(batch.result.scopes[0]).sort()).toEqual(['next_offset', 'observation_id', 'observed_scope_hash', 'offset', 'ordinal', 'scope_end', 'scope_length', 'scope_start', 'symbol', 'text', 'truncated']);
      const single = await mcp.call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'Appendix' });
      expect(single.result.presentation).toBeUndefined();
      expect(single.result).toMatchObject({ status: 'observed', start: single.result.scope_start, start_line: 23 });
    } finally {
      await mcp.close();
      await store.dispose();
    }
  });
});

describe(`palimpsest_observe_scope in the read-only profile over real MCP stdio on ${backend}`, () => {
  it('lists the tool, serves discovery and paging (nothing recorded), refuses selections before matching', async () => {
    const store = await isolatedStore();
    try {
      const call = async (name: string, args: Record<string, unknown>) => JSON.parse((await runCli(['call', name], { input: JSON.stringify(args), env: store.env })).stdout);
      const id = (await call('palimpsest_initialize_target', { filename: 'shapes.ts', content: fixture('shapes.ts') })).target_file_id;
      const observed = await call('palimpsest_observe_scope', { target_file_id: id, symbol_name: 'Shape', max_chars: 40 });
      expect(observed).toMatchObject({ status: 'observed', truncated: true, next_offset: 40 });
      const mcp = await connectMcp(store.env, ['--profile', 'read-only']);
      try {
        const tool = (await mcp.client.listTools()).tools.find((t) => t.name === 'palimpsest_observe_scope');
        expect(tool?.annotations).toEqual({ destructiveHint: false }); // it records in other calls: not readOnlyHint
        const found = await mcp.call('palimpsest_observe_scope', { target_file_id: id, query: 'scale' });
        expect(found).toMatchObject({ isError: false, result: { status: 'candidates', observation_id: null, total_candidates: 2 } });
        expect(found.result.candidates.map((c: { parent: string }) => c.parent)).toEqual(['Shape', 'Base']);
        const kinds = await mcp.call('palimpsest_observe_scope', { target_file_id: id, kind: 'enum' });
        expect(kinds.result.candidates.map((c: { name: string }) => c.name)).toEqual(['Color', 'Flags']);
        const page = await mcp.call('palimpsest_observe_scope', { target_file_id: id, observation_id: observed.observation_id, offset: 40 });
        expect(page.result).toMatchObject({ status: 'scope_page', observation_id: observed.observation_id, offset: 40 });
        expect(observed.text + page.result.text).toBe([...fixture('shapes.ts')].slice(observed.scope_start, observed.scope_end).join(''));
        for (const args of [{ symbol_name: 'Shape' }, { symbol_name: 'missing' }, { selections: [{ symbol_name: 'Id' }] }]) {
          const refused = await mcp.call('palimpsest_observe_scope', { target_file_id: id, ...args });
          expect(refused).toMatchObject({ isError: true, result: { status: 'invalid_argument', code: 'operation_not_permitted', observation_id: null } });
        }
      } finally {
        await mcp.close();
      }
    } finally {
      await store.dispose();
    }
  });
});
