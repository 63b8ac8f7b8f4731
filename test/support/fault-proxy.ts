import { createServer, connect, type Server, type Socket } from 'node:net';

/**
 * A TCP relay the test controls, between a client process (an executor) and a server (the gateway), with
 * the faults a real network path has. Bytes are forwarded by hand (no pipe), so a held or dropped byte is
 * exactly that:
 * - cut: every connection reset (both sides), and new ones reset on arrival, until it ends;
 * - stall: every byte either way held back, and delivered in order when it ends (latency, no loss);
 * - blackhole: every byte either way dropped, and the connections open now never carry another (a path
 *   that died silently: only the endpoints' own timers notice); new connections made while it lasts are
 *   accepted and then just as dead;
 * - flap: cut, pass, cut, pass... in quick succession.
 */
export type Fault = 'cut' | 'stall' | 'blackhole';

export interface FaultProxy {
  readonly port: number;
  readonly url: string;
  /** Live relayed connections. */
  readonly connections: number;
  /** The fault in force now, or null. */
  readonly fault: Fault | null;
  /** Puts `fault` in force until end() (a second fault ends the first). */
  begin(fault: Fault): void;
  end(): void;
  close(): Promise<void>;
}

interface Pair {
  client: Socket;
  upstream: Socket;
  /** Held while stalled, per direction. */
  held: { up: Buffer[]; down: Buffer[] };
  /** A blackholed connection stays dead. */
  dead: boolean;
}

export async function startFaultProxy(target: { host: string; port: number }): Promise<FaultProxy> {
  const pairs = new Set<Pair>();
  let fault: Fault | null = null;

  const drop = (pair: Pair, reset: boolean) => {
    if (!pairs.delete(pair)) return;
    if (reset) {
      pair.client.resetAndDestroy();
      pair.upstream.resetAndDestroy();
    } else {
      pair.client.destroy();
      pair.upstream.destroy();
    }
  };
  const forward = (pair: Pair, chunk: Buffer, way: 'up' | 'down') => {
    if (pair.dead) return;
    if (fault === 'stall') return void pair.held[way].push(chunk);
    (way === 'up' ? pair.upstream : pair.client).write(chunk);
  };

  const server: Server = createServer({ noDelay: true }, (client) => {
    if (fault === 'cut') return void client.resetAndDestroy();
    const upstream = connect({ host: target.host, port: target.port, noDelay: true });
    const pair: Pair = { client, upstream, held: { up: [], down: [] }, dead: fault === 'blackhole' };
    pairs.add(pair);
    client.on('data', (chunk: Buffer) => forward(pair, chunk, 'up'));
    upstream.on('data', (chunk: Buffer) => forward(pair, chunk, 'down'));
    // A dead connection's end is not relayed either: a blackhole says nothing.
    const closed = () => (pair.dead ? pair.client.destroyed && pair.upstream.destroyed && pairs.delete(pair) : drop(pair, false));
    // 'close' follows every 'error'.
    client.on('error', () => undefined).on('close', closed);
    upstream.on('error', () => undefined).on('close', closed);
  });
  await new Promise<void>((resolve, reject) => {
    server.once('error', reject);
    server.listen({ host: '127.0.0.1', port: 0 }, () => resolve());
  });
  const port = (server.address() as { port: number }).port;

  const release = () => {
    for (const pair of pairs) {
      if (pair.dead) continue;
      for (const chunk of pair.held.up.splice(0)) pair.upstream.write(chunk);
      for (const chunk of pair.held.down.splice(0)) pair.client.write(chunk);
    }
  };

  return {
    port,
    url: `http://127.0.0.1:${port}`,
    get connections() {
      return pairs.size;
    },
    get fault() {
      return fault;
    },
    begin(next) {
      if (fault === 'stall') release();
      fault = next;
      if (next === 'cut') for (const pair of [...pairs]) drop(pair, true);
      if (next === 'blackhole') for (const pair of pairs) pair.dead = true;
    },
    end() {
      const was = fault;
      fault = null;
      if (was === 'stall') release();
    },
    async close() {
      fault = null;
      for (const pair of [...pairs]) drop(pair, true);
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
