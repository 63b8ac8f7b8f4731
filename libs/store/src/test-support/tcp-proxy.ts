import { createServer, connect, type Server, type Socket } from 'node:net';

export interface TcpProxy {
  readonly host: string;
  /** Fixed for the proxy's life: cut() and restore() keep the same port. */
  readonly port: number;
  /** Live client connections (each with its upstream twin). */
  readonly connections: number;
  /** Drops every connection at once (TCP reset, both sides) and stops listening: new connections are refused. */
  cut(): Promise<void>;
  /** Listens again on the same port. */
  restore(): Promise<void>;
  /**
   * A blackhole: every byte either way is held back and new connections are accepted but not relayed,
   * as when a network path dies silently (no reset, no refusal). resume() delivers what was held.
   */
  stall(): void;
  resume(): void;
  /** cut(), for good. */
  close(): Promise<void>;
}

/**
 * A TCP relay in this process between a client (the gateway) and a server (PostgreSQL), to take the
 * server away and give it back: the client sees its connections reset and new ones refused
 * (ECONNREFUSED), as when the database host goes down, then connects again once restored.
 */
export async function startTcpProxy(target: { host: string; port: number }, host = '127.0.0.1'): Promise<TcpProxy> {
  const pairs = new Set<{ client: Socket; upstream: Socket }>();
  let server: Server | null = null;
  let port = 0;
  let stalled = false;
  const hold = (socket: Socket) => {
    socket.pause();
  };

  const onConnection = (client: Socket) => {
    const upstream = connect({ host: target.host, port: target.port });
    const pair = { client, upstream };
    pairs.add(pair);
    client.setNoDelay(true);
    upstream.setNoDelay(true);
    client.pipe(upstream);
    upstream.pipe(client);
    if (stalled) {
      hold(client);
      hold(upstream);
    }
    const drop = () => {
      if (!pairs.delete(pair)) return;
      client.destroy();
      upstream.destroy();
    };
    client.on('error', drop).on('close', drop);
    upstream.on('error', drop).on('close', drop);
  };

  const listen = () =>
    new Promise<void>((resolve, reject) => {
      const s = createServer({ noDelay: true }, onConnection);
      s.once('error', reject);
      s.listen({ host, port }, () => {
        s.off('error', reject);
        server = s;
        port = (s.address() as { port: number }).port;
        resolve();
      });
    });

  const cut = async () => {
    const s = server;
    server = null;
    for (const pair of [...pairs]) {
      pairs.delete(pair);
      pair.client.resetAndDestroy();
      pair.upstream.resetAndDestroy();
    }
    if (s) await new Promise<void>((resolve) => s.close(() => resolve()));
  };

  await listen();
  return {
    host,
    get port() {
      return port;
    },
    get connections() {
      return pairs.size;
    },
    cut,
    async restore() {
      if (!server) await listen();
    },
    stall() {
      stalled = true;
      for (const pair of pairs) {
        hold(pair.client);
        hold(pair.upstream);
      }
    },
    resume() {
      stalled = false;
      for (const pair of pairs) {
        pair.client.resume();
        pair.upstream.resume();
      }
    },
    close: cut,
  };
}
