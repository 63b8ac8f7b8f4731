import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { gatewayError } from '../errors/api-error';
import { observeToolCalls, type ToolCallObserver } from './mcp-tool-calls';

/** A transport as the SDK's Protocol leaves it after connect(): its callbacks set, send recording. */
function fakeTransport() {
  const delivered: JSONRPCMessage[] = [];
  const sent: JSONRPCMessage[] = [];
  const transport: Transport = {
    start: async () => undefined,
    close: async () => undefined,
    send: async (message) => void sent.push(message),
    onmessage: (message) => void delivered.push(message),
    onclose: () => undefined,
  };
  return { transport, delivered, sent };
}

const call = (id: number, name = 'palimpsest_read_target'): JSONRPCMessage => ({ jsonrpc: '2.0', id, method: 'tools/call', params: { name, arguments: {} } });
const tick = () => new Promise((r) => setImmediate(r));

function observer(admit: ToolCallObserver['admit']) {
  const done: [string, unknown][] = [];
  return { done, observer: { admit, done: (tool: string, result: unknown) => void done.push([tool, result]) } };
}

describe('observeToolCalls: an operation slot and the metrics around each tools/call', () => {
  it('runs a call once it has a slot, gives the slot back and reports when its answer is sent', async () => {
    const { transport, delivered } = fakeTransport();
    let released = 0;
    const o = observer(async () => () => void released++);
    observeToolCalls(transport, o.observer);
    transport.onmessage!({ jsonrpc: '2.0', id: 1, method: 'tools/list' });
    expect(delivered).toHaveLength(1); // not a call: straight through
    transport.onmessage!(call(2));
    expect(delivered).toHaveLength(1);
    await tick();
    expect(delivered).toHaveLength(2);
    await transport.send({ jsonrpc: '2.0', id: 2, result: { content: [], structuredContent: { status: 'ok' } } });
    expect({ released, done: o.done }).toEqual({ released: 1, done: [['palimpsest_read_target', { status: 'ok' }]] });
    await transport.send({ jsonrpc: '2.0', id: 1, result: { tools: [] } });
    expect(o.done).toHaveLength(1);
  });

  it('answers a call refused a slot with a JSON-RPC error carrying the gateway refusal, without running it', async () => {
    const { transport, delivered, sent } = fakeTransport();
    const saturated = gatewayError(429, 'resource_limit', 'saturated', 'Every operation slot is busy.');
    observeToolCalls(transport, observer(async () => Promise.reject(saturated)).observer);
    transport.onmessage!(call(7));
    await tick();
    expect(delivered).toEqual([]);
    expect(sent).toEqual([{ jsonrpc: '2.0', id: 7, error: { code: -32000, message: 'Every operation slot is busy.', data: saturated.body } }]);
  });

  it('gives every slot back when the transport closes with calls unanswered', async () => {
    const { transport } = fakeTransport();
    let released = 0;
    observeToolCalls(transport, observer(async () => () => void released++).observer);
    transport.onmessage!(call(1));
    transport.onmessage!(call(2));
    await tick();
    transport.onclose!();
    expect(released).toBe(2);
  });
});
