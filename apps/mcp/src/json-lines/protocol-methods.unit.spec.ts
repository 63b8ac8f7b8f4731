import { ALLOW_ALL, READ_ONLY } from '@palimpsest/core/policy/owner-policy';
import { MAX_RESPONSE_BYTES } from '@palimpsest/protocol/codec/json-rpc.constants';
import { outcomeLine } from '@palimpsest/protocol/codec/json-rpc-response';
import { PROTOCOL_METHODS } from '@palimpsest/protocol/protocol-methods/protocol-methods';
import { protocolSession, withProtocolMethods } from './protocol-methods';

const id = { kind: 'integer', token: '1' } as const;

describe('JSON-lines protocol methods', () => {
  const passed: string[] = [];
  const inner = async (method: string) => {
    passed.push(method);
    return { status: 'ok', method };
  };

  it('serves every protocol method under every profile, answered here; operations go to the catalog call', async () => {
    for (const policy of [READ_ONLY, ALLOW_ALL]) {
      const methods = withProtocolMethods(policy, inner);
      for (const m of PROTOCOL_METHODS) expect(methods.availability(m.name)).toBe('available');
      expect(await methods.call('protocol/capabilities', {})).toMatchObject({ status: 'ok', payload: { profile: policy.name } });
      expect(await methods.call('palimpsest_get_target', { target_file_id: 't' })).toEqual({ status: 'ok', method: 'palimpsest_get_target' });
    }
    expect(passed).toEqual(['palimpsest_get_target', 'palimpsest_get_target']);
    expect(withProtocolMethods(READ_ONLY, inner).availability('palimpsest_submit_edits')).toBe('read_only_profile');
    expect(withProtocolMethods(ALLOW_ALL, inner).availability('protocol/nope')).toBe('unknown');
  });

  it('says the exact capability: read_only for the read-only profile or a policy that serves no write', () => {
    expect(protocolSession(READ_ONLY).capability).toBe('read_only');
    expect(protocolSession(ALLOW_ALL).capability).toBe('read_write');
    expect(protocolSession({ ...ALLOW_ALL, name: 'lookers', tools: ['grep', 'read_file'] }).capability).toBe('read_only');
  });

  it('answers each protocol method within the response limit, as a result line (a refusal as -32602)', async () => {
    const methods = withProtocolMethods(ALLOW_ALL, inner);
    for (const [method, params] of [['protocol/schemas', {}], ['protocol/client', { language: 'typescript' }], ['query/catalog', {}]] as const) {
      const line = outcomeLine(id, await methods.call(method, params));
      expect(line.length + 1).toBeLessThan(MAX_RESPONSE_BYTES);
      expect(JSON.parse(line).result.status).toBe('ok');
    }
    expect(JSON.parse(outcomeLine(id, await methods.call('protocol/client', { language: 'go' }))).error).toMatchObject({ code: -32602 });
  });
});
