import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import Ajv2020 from 'ajv/dist/2020';
import addFormats from 'ajv-formats';
import pino from 'pino';
import { EVENT_SCHEMAS } from '@palimpsest/protocol/publish/event-schemas';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import { ActiveProjects } from '@palimpsest/application/relay/active-projects';
import { createAppHarness, type AppHarness } from '@palimpsest/application/test-support/app-harness';
import { createWorkspaceHarness, type WorkspaceHarness } from '@palimpsest/application/test-support/workspace-harness';
import type { ToolCallMessage, ToolResultMessage } from '@palimpsest/protocol/executor/executor-messages';
import { ExecutorRelay } from './executor-relay';
import { LinkLost, type RelayEndpoint } from './relay-endpoint';

/**
 * An executor's side without the socket: the executor's own store and workspace, each request id performed
 * once (its record, as `palimpsest connect` keeps it), and a link that can be cut after the call ran.
 */
class LoopbackExecutor {
  readonly performed = new Map<string, Promise<ToolResultMessage>>();
  constructor(private readonly exec: WorkspaceHarness) {}

  perform(message: ToolCallMessage): Promise<ToolResultMessage> {
    const seen = this.performed.get(message.requestId);
    if (seen) return seen;
    const answer = dispatchRequest(this.exec.ctx, message.tool, message.arguments).then((value): ToolResultMessage => ({ type: 'tool.result', requestId: message.requestId, durationMs: 1, result: { ok: true, value } }));
    this.performed.set(message.requestId, answer);
    return answer;
  }
}

class LoopbackLink implements RelayEndpoint {
  gone = false;
  /** The next call runs on the executor, and the link drops before its answer comes back. */
  cutAfterNext = false;
  constructor(private readonly executor: LoopbackExecutor) {}

  async send(message: ToolCallMessage): Promise<ToolResultMessage> {
    if (this.gone) throw new LinkLost('gone');
    const answer = await this.executor.perform(message);
    if (this.cutAfterNext) {
      this.gone = true;
      throw new LinkLost('cut');
    }
    return answer;
  }
}

const PROJECT = { id: 'prj_site', slug: 'site' };
const HOLDER = { deviceId: 'dev_1', tokenId: null, tokenHash: null };

describe('the executor relay on the gateway: project choice, the record by idempotency key, a link lost mid-call', () => {
  let gateway: AppHarness;
  let exec: WorkspaceHarness;
  let relay: ExecutorRelay;
  let executor: LoopbackExecutor;
  const call = (name: string, args: Record<string, unknown>, session = 'client-1') => dispatchRequest(gateway.ctx, name, args, { correlationId: session }) as Promise<Record<string, any>>;
  const recorded = async (type: string) => gateway.count(`SELECT count(*) FROM events WHERE stream_id LIKE 'relay-call-%' AND event_type = $1`, [type]);
  const text = () => readFileSync(join(exec.dir, 'notes.txt'), 'utf8');

  beforeAll(async () => {
    gateway = await createAppHarness();
    exec = await createWorkspaceHarness('palimpsest-relay-int-');
    relay = new ExecutorRelay(gateway.ctx, { timeoutMs: 1_500 }, pino({ level: 'silent' }));
    gateway.ctx.relay = { port: relay, active: new ActiveProjects() };
    executor = new LoopbackExecutor(exec);
    writeFileSync(join(exec.dir, 'notes.txt'), 'one\n');
  });

  afterAll(async () => {
    await exec?.dispose();
    await gateway?.dispose();
  });

  it('asks for a project until one is chosen or named, per client session', async () => {
    expect(await call('list_projects', {})).toEqual({ status: 'ok', projects: [], active: null });
    relay.online(new LoopbackLink(executor), HOLDER, [PROJECT]);
    expect(await call('read_file', { path: 'notes.txt' })).toMatchObject({ code: 'NO_ACTIVE_PROJECT', answer: 'NO_ACTIVE_PROJECT', retryable: 'none' });
    expect(await call('read_file', { path: 'notes.txt', project: 'site' })).toMatchObject({ status: 'ok', content: 'one\n' });
    expect(await call('set_active_project', { project: 'prj_site' })).toMatchObject({ status: 'ok', project: { slug: 'site', active: true } });
    expect(await call('read_file', { path: 'notes.txt' })).toMatchObject({ status: 'ok', content: 'one\n' });
    expect(await call('get_active_project', {}, 'client-2')).toMatchObject({ code: 'NO_ACTIVE_PROJECT' });
    expect(await call('read_file', { path: 'notes.txt', project: 'elsewhere' })).toMatchObject({ status: 'not_found', code: 'UNKNOWN_PROJECT' });
  });

  it('records each call before it is sent and with its answer; a resent key answers the record and applies once', async () => {
    const sentBefore = await recorded('RelayCallSent');
    const args = { path: 'notes.txt', oldString: 'one', newString: 'one two', client_request_id: 'k-once' };
    const first = await call('edit_file', args);
    expect(first).toMatchObject({ status: 'ok' });
    expect(await call('edit_file', args)).toEqual(first);
    expect(text()).toBe('one two\n');
    expect(await recorded('RelayCallSent')).toBe(sentBefore + 1);
    expect(await call('edit_file', { ...args, newString: 'three' })).toMatchObject({ code: 'idempotency_key_conflict' });
  });

  it('waits for an executor whose link dropped mid-call, sends the same request again, and gets the recorded answer', async () => {
    const link = new LoopbackLink(executor);
    link.cutAfterNext = true;
    relay.online(link, HOLDER, [PROJECT]);
    const answer = call('edit_file', { path: 'notes.txt', oldString: 'two', newString: 'two!', client_request_id: 'k-cut' });
    await new Promise((r) => setTimeout(r, 100));
    relay.offline(link);
    expect(relay.callsInFlight).toBe(1); // waiting for its executor: /metrics counts it
    relay.online(new LoopbackLink(executor), HOLDER, [PROJECT]);
    expect(await answer).toMatchObject({ status: 'ok' });
    expect(relay.callsInFlight).toBe(0);
    expect(text()).toBe('one two!\n'); // once, though sent twice
  });

  it('answers LOCAL_EXECUTOR_OFFLINE with the outcome unknown past the deadline, and settles the key when the executor is back', async () => {
    const link = new LoopbackLink(executor);
    link.cutAfterNext = true;
    relay.online(link, HOLDER, [PROJECT]);
    const args = { path: 'notes.txt', oldString: 'two!', newString: 'two?', client_request_id: 'k-doubt' };
    const answer = await call('edit_file', args);
    expect(answer).toMatchObject({ code: 'LOCAL_EXECUTOR_OFFLINE', outcome: 'unknown', client_request_id: 'k-doubt' });
    relay.offline(link);
    expect(await call('read_file', { path: 'notes.txt' })).toMatchObject({ code: 'LOCAL_EXECUTOR_OFFLINE' }); // offline: answered at once
    relay.online(new LoopbackLink(executor), HOLDER, [PROJECT]);
    expect(await call('edit_file', args)).toMatchObject({ status: 'ok' });
    expect(text()).toBe('one two?\n');
    expect(await recorded('RelayCallAnswered')).toBe(await recorded('RelayCallSent'));
  });

  it('records events its published schemas admit', async () => {
    const ajv = new Ajv2020({ strict: true, allowUnionTypes: true });
    addFormats(ajv);
    const { rows } = await gateway.testDb.db.query<{ event_type: string; data: unknown }>(`SELECT event_type, data FROM events WHERE stream_id LIKE 'relay-call-%'`);
    expect(rows.length).toBeGreaterThan(4);
    for (const row of rows) expect({ type: row.event_type, errors: ajv.validate(EVENT_SCHEMAS[row.event_type]!, row.data) ? null : ajv.errors }).toEqual({ type: row.event_type, errors: null });
  });
});
