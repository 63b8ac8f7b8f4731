import { describeRefusal, parseExecutorMessage, parseRelayMessage, type LinkParse } from './executor-message-parser';
import { EXECUTOR_MESSAGE_SCHEMA } from './executor-message.schema';
import { EXECUTOR_TOOL_ERROR_CODES, EXECUTOR_TOOL_NAMES } from './executor-messages';
import { EXECUTOR_MAX_MESSAGE_BYTES } from './executor-protocol';
import { RELAY_MESSAGE_SCHEMA } from './relay-message.schema';

const hello = { type: 'hello', protocolVersion: 1, deviceId: 'dev_1', cliVersion: '0.1.0', platform: 'linux-x64', projects: [{ id: 'prj_1', slug: 'site' }] };
const policy = { mode: 'allow_list', allow: ['npm test'], deny: [], shell: false, approve: true, tools: ['run_command'] };

const VALID_EXECUTOR = [
  hello,
  { ...hello, projects: [], capabilities: { prompt: true, tools: ['read_file', 'grep'] } },
  { type: 'heartbeat' },
  { type: 'heartbeat', at: 1_700_000_000_000 },
  { type: 'presence', at: 1_700_000_000_000 },
  { type: 'tool.result', requestId: 'r1', durationMs: 12, result: { ok: true, value: { text: 'x', nested: [1, null, { a: true }] } } },
  { type: 'tool.result', requestId: 'r1', durationMs: 0, result: { ok: true, value: null } },
  { type: 'tool.result', requestId: 'r2', durationMs: 3, result: { ok: false, error: { code: 'PATH_ESCAPE', message: 'outside the project' } } },
  { type: 'approval.answer', id: 'a1', approved: false },
];

const VALID_RELAY = [
  { type: 'hello.ack', serverTime: 1_700_000_000_000, heartbeatIntervalMs: 30_000 },
  { type: 'hello.ack', serverTime: 1, heartbeatIntervalMs: 1, latestCliVersion: '0.2.0', heartbeatMode: 'auto' },
  { type: 'heartbeat.ack' },
  { type: 'tool.call', requestId: 'r1', projectId: 'prj_1', tool: 'read_file', arguments: { path: 'a.md' }, issuedAt: 1, expiresAt: 2 },
  { type: 'tool.call', requestId: 'r1', projectId: 'prj_1', tool: 'run_command', arguments: null, client: { name: 'claude' }, policy, issuedAt: 1, expiresAt: 2 },
  { type: 'tool.call', requestId: 'r1', projectId: 'p', tool: 'grep', arguments: [], policy: { ...policy, mode: 'read_only', tools: null }, issuedAt: 1, expiresAt: 2 },
  { type: 'cancel', requestId: 'r1' },
  { type: 'shutdown', reason: 'gateway stopping' },
  { type: 'approval.request', id: 'a1', projectId: 'prj_1', tool: 'write_file', prompt: 'Write a.md?', client: { name: 'c', version: '1' }, expiresAt: 5 },
  { type: 'approval.resolved', id: 'a1' },
];

/** [message, failing path]: every message type, each wrong in one way. */
const HOSTILE_EXECUTOR: [unknown, string][] = [
  [{ ...hello, protocolVersion: '1' }, '/protocolVersion'],
  [{ ...hello, protocolVersion: 1.5 }, '/protocolVersion'],
  [{ ...hello, protocolVersion: 2 ** 60 }, '/protocolVersion'],
  [{ ...hello, deviceId: undefined }, '/deviceId'],
  [{ ...hello, projects: [{ id: 'p' }] }, '/projects/0/slug'],
  [{ ...hello, projects: [{ id: 'p', slug: 's', root: '/home' }] }, '/projects/0/root'],
  [{ ...hello, projects: 'site' }, '/projects'],
  [{ ...hello, capabilities: { prompt: true } }, '/capabilities/tools'],
  [{ ...hello, capabilities: { prompt: true, tools: Array(65).fill('grep') } }, '/capabilities/tools'],
  [{ ...hello, capabilities: { prompt: true, tools: ['x'.repeat(65)] } }, '/capabilities/tools/0'],
  [{ ...hello, admin: true }, '/admin'],
  [{ type: 'heartbeat', at: 'now' }, '/at'],
  [{ type: 'heartbeat', extra: 1 }, '/extra'],
  [{ type: 'presence' }, '/at'],
  [{ type: 'tool.result', requestId: 'r', durationMs: 1 }, '/result'],
  [{ type: 'tool.result', requestId: 'r', durationMs: 1, result: { ok: false, error: { code: 'NOPE', message: 'm' } } }, '/result/error/code'],
  [{ type: 'tool.result', requestId: 'r', durationMs: 1, result: { ok: true } }, '/result/value'],
  [{ type: 'tool.result', requestId: 'r', durationMs: 1, result: { ok: 'yes', value: 1 } }, '/result/ok'],
  [{ type: 'approval.answer', id: 'a', approved: 'yes' }, '/approved'],
  [{ type: 'hello.ack', serverTime: 1, heartbeatIntervalMs: 1 }, '/type'], // a relay message, not an executor's
  [{ type: 'HELLO' }, '/type'],
  [{ type: 7 }, '/type'],
  [{}, '/type'],
  [[hello], ''],
  ['hello', ''],
  [null, ''],
];

const HOSTILE_RELAY: [unknown, string][] = [
  [{ type: 'hello.ack', serverTime: 1 }, '/heartbeatIntervalMs'],
  [{ type: 'hello.ack', serverTime: 1, heartbeatIntervalMs: 1, heartbeatMode: 'manual' }, '/heartbeatMode'],
  [{ type: 'heartbeat.ack', at: 1 }, '/at'],
  [{ type: 'tool.call', requestId: 'r', projectId: 'p', tool: 'rm_rf', arguments: {}, issuedAt: 1, expiresAt: 2 }, '/tool'],
  [{ type: 'tool.call', requestId: 'r', projectId: 'p', tool: 'grep', issuedAt: 1, expiresAt: 2 }, '/arguments'],
  [{ type: 'tool.call', requestId: 'r', projectId: 'p', tool: 'grep', arguments: {}, policy: { mode: 'allow_all' }, issuedAt: 1, expiresAt: 2 }, '/policy/allow'],
  [{ type: 'tool.call', requestId: 'r', projectId: 'p', tool: 'grep', arguments: {}, client: { name: 'c', token: 't' }, issuedAt: 1, expiresAt: 2 }, '/client/token'],
  [{ type: 'cancel' }, '/requestId'],
  [{ type: 'shutdown' }, '/reason'],
  [{ type: 'approval.request', id: 'a', projectId: 'p', tool: 'grep', expiresAt: 1 }, '/prompt'],
  [{ type: 'approval.resolved', id: 1 }, '/id'],
  [{ type: 'heartbeat' }, '/type'], // an executor message, not the relay's
];

const text = (value: unknown) => JSON.stringify(value);
const refusalOf = <T>(parsed: LinkParse<T>) => (parsed.ok ? { ok: true } : { reason: parsed.reason, path: parsed.path });

describe('parseExecutorMessage / parseRelayMessage', () => {
  it.each(VALID_EXECUTOR.map((m) => [m.type, m]))('accepts an executor %s', (_type, message) => {
    expect(parseExecutorMessage(text(message))).toEqual({ ok: true, message });
  });

  it.each(VALID_RELAY.map((m) => [m.type, m]))('accepts a relay %s', (_type, message) => {
    expect(parseRelayMessage(text(message))).toEqual({ ok: true, message });
  });

  it.each(HOSTILE_EXECUTOR)('refuses the executor message %j, naming %s', (message, path) => {
    expect(refusalOf(parseExecutorMessage(text(message)))).toEqual({ reason: 'schema_violation', path });
  });

  it.each(HOSTILE_RELAY)('refuses the relay message %j, naming %s', (message, path) => {
    expect(refusalOf(parseRelayMessage(text(message)))).toEqual({ reason: 'schema_violation', path });
  });

  it.each(['', 'garbage', '{"type":"heartbeat"', '{"type":"heartbeat",}', "{'type':'heartbeat'}", '\ufeff{"type":"heartbeat"}', 'NaN'])(
    'refuses %j as not JSON',
    (garbage) => {
      expect(refusalOf(parseExecutorMessage(garbage))).toEqual({ reason: 'not_json', path: null });
      expect(refusalOf(parseRelayMessage(garbage))).toEqual({ reason: 'not_json', path: null });
    },
  );

  it('refuses a repeated member name and a nesting bomb as not JSON, never as one reading of them', () => {
    expect(parseExecutorMessage('{"type":"heartbeat","type":"hello"}')).toMatchObject({ ok: false, reason: 'not_json', message: expect.stringContaining('Duplicate member') });
    const deep = `{"type":"tool.result","requestId":"r","durationMs":1,"result":{"ok":true,"value":${'['.repeat(10_000)}${']'.repeat(10_000)}}}`;
    expect(parseExecutorMessage(deep)).toMatchObject({ ok: false, reason: 'not_json' });
  });

  it('counts the limit in UTF-8 bytes: a message of exactly the limit passes, one byte more is too large', () => {
    const envelope = (pad: string) => `{"type":"tool.result","requestId":"r","durationMs":1,"result":{"ok":true,"value":"${pad}"}}`;
    const room = EXECUTOR_MAX_MESSAGE_BYTES - envelope('').length;
    expect(parseExecutorMessage(envelope('x'.repeat(room))).ok).toBe(true);
    expect(parseExecutorMessage(envelope('x'.repeat(room + 1)))).toMatchObject({ ok: false, reason: 'too_large', path: null });
    // Fewer UTF-16 units than the limit, more bytes: é is two bytes.
    expect(parseExecutorMessage(envelope('é'.repeat(Math.ceil(room / 2) + 1)))).toMatchObject({ ok: false, reason: 'too_large' });
  });

  it('describes a refusal in one line with its path', () => {
    const refused = parseExecutorMessage(text({ ...hello, projects: [{ id: 'p' }] }));
    expect(refused.ok).toBe(false);
    if (!refused.ok) expect(describeRefusal(refused)).toBe("schema_violation at /projects/0/slug: must have required property 'slug'");
  });

  it('keeps the TypeScript enumerations equal to the schemas\'', () => {
    const branch = (schema: Record<string, unknown>, type: string) =>
      (schema.oneOf as { properties: Record<string, any> }[]).find((b) => b.properties.type.const === type)!.properties;
    expect(branch(RELAY_MESSAGE_SCHEMA, 'tool.call').tool.enum).toEqual([...EXECUTOR_TOOL_NAMES]);
    const failure = branch(EXECUTOR_MESSAGE_SCHEMA, 'tool.result').result.oneOf[1].properties.error.properties.code.enum;
    expect(failure).toEqual([...EXECUTOR_TOOL_ERROR_CODES]);
  });
});
