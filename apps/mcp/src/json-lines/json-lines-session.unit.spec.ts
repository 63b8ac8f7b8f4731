import { PassThrough, Writable } from 'node:stream';
import { runJsonLinesSession, type JsonLinesSessionOptions, type MethodAvailability } from './json-lines-session';

interface Harness {
  input: PassThrough;
  lines: string[];
  calls: Array<{ method: string; params: Record<string, unknown> }>;
  done: ReturnType<typeof runJsonLinesSession>;
}

const AVAILABLE: Record<string, MethodAvailability> = { read: 'available', echo: 'available', slow: 'available', boom: 'available', big: 'available', write: 'read_only_profile' };

function start(overrides: Partial<JsonLinesSessionOptions> = {}): Harness {
  const input = new PassThrough();
  const output = new PassThrough();
  const lines: string[] = [];
  let rest = '';
  output.on('data', (d: Buffer) => {
    const parts = (rest + d.toString('latin1')).split('\n');
    rest = parts.pop() ?? '';
    lines.push(...parts);
  });
  const calls: Harness['calls'] = [];
  const done = runJsonLinesSession({
    input,
    output,
    availability: (m) => AVAILABLE[m] ?? 'unknown',
    call: async (method, params) => {
      calls.push({ method, params });
      if (method === 'slow') await new Promise((r) => setTimeout(r, Number(params.ms ?? 20)));
      if (method === 'boom') throw new Error('database down');
      if (method === 'big') return { status: 'ok', blob: 'x'.repeat(Number(params.n)) };
      return { status: 'ok', method, params };
    },
    ...overrides,
  });
  return { input, lines, calls, done };
}

const req = (id: number | string, method: string, params?: unknown) =>
  JSON.stringify({ jsonrpc: '2.0', id, method, ...(params === undefined ? {} : { params }) });

describe('runJsonLinesSession', () => {
  it('answers requests one at a time, in arrival order, and ends cleanly at EOF', async () => {
    let concurrent = 0;
    let maxConcurrent = 0;
    const tracked = start({
      call: async (method, params) => {
        concurrent++;
        maxConcurrent = Math.max(maxConcurrent, concurrent);
        await new Promise((r) => setTimeout(r, Number(params.ms)));
        concurrent--;
        return { status: 'ok', ms: params.ms };
      },
    });
    tracked.input.end(`${req(1, 'slow', { ms: 30 })}\n${req(2, 'slow', { ms: 1 })}\n${req(3, 'slow', { ms: 10 })}\n`);
    const end = await tracked.done;
    expect(end).toEqual({ reason: 'eof', requests: 3, exitCode: 0 });
    expect(tracked.lines.map((l) => JSON.parse(l).id)).toEqual([1, 2, 3]);
    expect(maxConcurrent).toBe(1);
  });

  it('passes absent params as {} and answers the last frame even without LF', async () => {
    const h = start();
    h.input.end(req(7, 'read'));
    await h.done;
    expect(h.calls).toEqual([{ method: 'read', params: {} }]);
    expect(JSON.parse(h.lines[0])).toEqual({ jsonrpc: '2.0', id: 7, result: { status: 'ok', method: 'read', params: {} } });
  });

  it('ignores empty frames and never dispatches notifications, even for unknown methods or bad params', async () => {
    const h = start();
    h.input.end(`\n\n{"jsonrpc":"2.0","method":"echo","params":{"a":1}}\n{"jsonrpc":"2.0","method":"nope","params":[1]}\n${req(1, 'echo')}\n`);
    await h.done;
    expect(h.calls.map((c) => c.method)).toEqual(['echo']);
    expect(h.lines).toHaveLength(1);
  });

  it('answers codec failures and goes on; unknown and profile-refused methods are -32601 and never called', async () => {
    const h = start();
    h.input.end(
      [
        '{"jsonrpc":"2.0","id":1,"method":"echo",}',
        '[]',
        req(3, 'nope'),
        req(4, 'write', {}),
        req(5, 'echo', [1, 2]),
        '{"jsonrpc":"2.0","id":18446744073709551615,"method":"echo","params":{"n":1}}',
      ].join('\n') + '\n',
    );
    const end = await h.done;
    expect(end.reason).toBe('eof');
    const replies = h.lines.map((l) => JSON.parse(l));
    expect(replies.map((r) => r.error?.code ?? 'result')).toEqual([-32700, -32600, -32601, -32601, -32602, 'result']);
    expect(replies[3].error.data).toMatchObject({ code: 'operation_not_permitted', method: 'write' });
    expect(h.lines[5]).toContain('"id":18446744073709551615,');
    expect(h.calls.map((c) => c.method)).toEqual(['echo']);
  });

  it('answers a failing call with -32603 and keeps serving', async () => {
    const errors: string[] = [];
    const h = start({ onInternalError: (m, e) => errors.push(`${m}: ${(e as Error).message}`) });
    h.input.end(`${req(1, 'boom')}\n${req(2, 'echo')}\n`);
    await h.done;
    expect(JSON.parse(h.lines[0]).error).toMatchObject({ code: -32603, data: { status: 'internal' } });
    expect(JSON.parse(h.lines[1])).toHaveProperty('result');
    expect(errors).toEqual(['boom: database down']);
  });

  it('drains an oversized frame, answers it once with -32700 and stops without reading on', async () => {
    const h = start({ maxFrameBytes: 64 });
    h.input.write(`${req(1, 'echo')}\n`);
    h.input.write('x'.repeat(50));
    h.input.write('y'.repeat(50));
    h.input.write(`z\n${req(2, 'echo')}\n`);
    const end = await h.done;
    expect(end).toMatchObject({ reason: 'oversized_request', exitCode: 65 });
    expect(h.lines.map((l) => JSON.parse(l))).toEqual([
      expect.objectContaining({ id: 1, result: expect.anything() }),
      expect.objectContaining({ id: null, error: expect.objectContaining({ code: -32700, data: expect.objectContaining({ code: 'frame_too_large' }) }) }),
    ]);
    expect(h.calls).toHaveLength(1);
    expect(h.input.destroyed).toBe(true);
  });

  it('reports an oversized frame cut off by EOF', async () => {
    const h = start({ maxFrameBytes: 8 });
    h.input.end('0123456789');
    expect(await h.done).toMatchObject({ reason: 'oversized_request' });
    expect(JSON.parse(h.lines[0]).error.code).toBe(-32700);
  });

  it('replaces an oversized response by -32001 for the same id and stops', async () => {
    const h = start({ maxResponseBytes: 200 });
    h.input.end(`${req('a', 'big', { n: 10 })}\n${req('b', 'big', { n: 500 })}\n${req('c', 'echo')}\n`);
    const end = await h.done;
    expect(end).toMatchObject({ reason: 'oversized_response', exitCode: 65, requests: 2 });
    expect(h.lines).toHaveLength(2);
    expect(JSON.parse(h.lines[1])).toMatchObject({ id: 'b', error: { code: -32001 } });
    expect(h.lines[1]).not.toContain('xxxx');
    expect(h.calls.map((c) => c.method)).toEqual(['big', 'big']);
  });

  it('stops when the output goes away', async () => {
    const output = new Writable({ write: (_c, _e, cb) => cb(new Error('EPIPE')) });
    const input = new PassThrough();
    const done = runJsonLinesSession({ input, output, availability: () => 'available', call: async () => ({ status: 'ok' }) });
    input.end(`${req(1, 'echo')}\n${req(2, 'echo')}\n`);
    expect(await done).toMatchObject({ reason: 'output_closed', exitCode: 74 });
  });

  it('writes only ASCII, so U+2028 in a result cannot split the line', async () => {
    const h = start();
    h.input.end(`${req(1, 'echo', { text: 'a\u2028b\u0085c\u{1F600}' })}\n`);
    await h.done;
    expect(h.lines).toHaveLength(1);
    expect(h.lines[0]).toMatch(/^[\x20-\x7e]*$/);
    expect(JSON.parse(h.lines[0]).result.params.text).toBe('a\u2028b\u0085c\u{1F600}');
  });
});
