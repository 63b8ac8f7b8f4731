import { CATALOG } from '../catalog/catalog';
import { answerProtocolMethod, servedMethods, type ProtocolSession } from './protocol-answers';
import { PROTOCOL_METHODS } from './protocol-methods';
import { wireMethods } from './wire-methods';

const session = (serves: (name: string) => boolean, capability: ProtocolSession['capability'] = 'read_only'): ProtocolSession => ({ profile: 'p', capability, serves });
const payload = (name: string, args: unknown, s: ProtocolSession) => (answerProtocolMethod(name, args, s) as { payload: Record<string, any> }).payload;

describe('protocol method answers', () => {
  it('capabilities name the protocol methods and exactly the operations the session serves, sorted', () => {
    const none = session(() => false);
    expect(payload('protocol/capabilities', {}, none).methods).toEqual(PROTOCOL_METHODS.map((m) => m.name).sort());
    const grep = servedMethods(session((n) => n === 'grep'));
    expect(grep).toEqual(['grep', ...PROTOCOL_METHODS.map((m) => m.name)].sort());
    const status = servedMethods(session((n) => n === 'palimpsest_snapshot_status'));
    expect(status).toEqual(['palimpsest_snapshot_status', ...PROTOCOL_METHODS.map((m) => m.name), 'workspace/status'].sort());
  });

  it('schemas cover every method; query/catalog only the reads served', () => {
    const all = session(() => true, 'read_write');
    expect(Object.keys(payload('protocol/schemas', {}, all).methods)).toEqual(wireMethods().map((m) => m.name));
    const queries = payload('query/catalog', {}, all).queries.map((q: { name: string }) => q.name);
    expect(queries.length).toBe(CATALOG.filter((op) => op.readOnly).length);
    expect(queries).not.toContain('palimpsest_submit_edits');
  });

  it('instructions follow the profile: a read-only session is told it cannot write, a full one how to write', () => {
    const readOnly = payload('protocol/instructions', {}, session(() => true)).instructions.join(' ');
    const full = payload('protocol/instructions', {}, session(() => true, 'read_write')).instructions.join(' ');
    expect(readOnly).toContain('read-only');
    expect(full).toContain('expected_target_version');
    expect(full).not.toContain('read-only');
  });

  it('refuses params as admission does, and is null for a name that is not a protocol method', () => {
    const s = session(() => true);
    expect(answerProtocolMethod('protocol/client', { language: 'go' }, s)).toMatchObject({
      status: 'invalid_argument',
      code: 'invalid_argument_value',
      failure_detail: 'language must be one of typescript, python, rust.',
    });
    expect(answerProtocolMethod('protocol/schemas', { x: 1 }, s)).toMatchObject({ status: 'invalid_argument', code: 'unknown_argument' });
    expect(answerProtocolMethod('palimpsest_get_target', {}, s)).toBeNull();
  });
});
