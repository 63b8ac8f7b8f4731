import type { JSONRPCMessage } from '@modelcontextprotocol/sdk/types.js';
import { BoundedEventStore } from './mcp-event-store';

const note = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', method: 'notifications/message', params: { level: 'info', data: n } });

async function replay(store: BoundedEventStore, after: string): Promise<[string, unknown][]> {
  const sent: [string, unknown][] = [];
  await store.replayEventsAfter(after, { send: async (id, m) => void sent.push([id, (m as unknown as { params?: { data: unknown }; id?: unknown }).params?.data ?? (m as { id?: unknown }).id]) });
  return sent;
}

describe('BoundedEventStore (Last-Event-ID replay for one session)', () => {
  it('replays what a stream sent after the given event, and nothing of other streams', async () => {
    const store = new BoundedEventStore();
    const first = await store.storeEvent('_GET_stream', note(1));
    await store.storeEvent('post-1', note(99));
    const second = await store.storeEvent('_GET_stream', note(2));
    await store.storeEvent('_GET_stream', note(3));
    expect(await store.getStreamIdForEventId(first)).toBe('_GET_stream');
    expect(await replay(store, first)).toEqual([
      [second, 2],
      ['_GET_stream/4', 3],
    ]);
    expect(await replay(store, '_GET_stream/4')).toEqual([]);
  });

  it('keeps at most perStream events of a stream and total of the session, oldest evicted first', async () => {
    const store = new BoundedEventStore({ perStream: 2, total: 3, chars: 1e9 });
    for (const n of [1, 2, 3]) await store.storeEvent('a', note(n));
    expect(await replay(store, 'a/1')).toEqual([['a/2', 2], ['a/3', 3]]);
    await store.storeEvent('b', note(4));
    await store.storeEvent('b', note(5));
    expect(store.size).toBe(3);
    expect(await replay(store, 'a/1')).toEqual([['a/3', 3]]);
    await store.storeEvent('c', note(6));
    expect(await store.getStreamIdForEventId('a/3')).toBeUndefined(); // stream a is gone entirely
    expect(await replay(store, 'b/4')).toEqual([['b/5', 5]]);
  });

  it('does not know ids it never gave out', async () => {
    const store = new BoundedEventStore();
    await store.storeEvent('a', note(1));
    for (const id of ['a/2', 'a', 'a/0', 'a/x', 'other/1', '']) expect(await store.getStreamIdForEventId(id)).toBeUndefined();
    await expect(replay(store, 'other/1')).rejects.toThrow(/unknown event id/);
  });

  it('bounds the characters kept, whatever the count: large results push the oldest out', async () => {
    const big = (n: number): JSONRPCMessage => ({ jsonrpc: '2.0', id: n, result: { text: 'x'.repeat(1000) } });
    const store = new BoundedEventStore({ perStream: 100, total: 100, chars: 2500 });
    for (const n of [1, 2, 3]) await store.storeEvent('post', big(n));
    expect(store.size).toBe(2);
    expect(store.kept).toBeLessThanOrEqual(2500);
    expect((await replay(store, 'post/1')).map(([id]) => id)).toEqual(['post/2', 'post/3']);
    await store.storeEvent('post', { jsonrpc: '2.0', id: 4, result: { text: 'x'.repeat(5000) } }); // larger than the bound: sent, not kept
    expect([store.size, store.kept]).toEqual([0, 0]);
  });
});
