import { createServer, type IncomingMessage, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import type { GatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import { GatewayClient } from './gateway-client';

describe('GatewayClient (the CLI side of a command going through the gateway)', () => {
  let server: Server;
  let seen: { method?: string; url?: string; authorization?: string; type?: string; body: string }[];
  let url: string;
  const address = (over: Partial<GatewayAddress> = {}): GatewayAddress => ({
    pid: 4242,
    url,
    version: '0.1.0',
    token: 'pal_credential',
    data_dir: '/tmp/x',
    workspace_root: null,
    started_at: '2026-01-01T00:00:00.000Z',
    ...over,
  });

  beforeAll(async () => {
    seen = [];
    server = createServer((req: IncomingMessage, res) => {
      let body = '';
      req.on('data', (d) => (body += d));
      req.on('end', () => {
        seen.push({ method: req.method, url: req.url, authorization: req.headers.authorization, type: req.headers['content-type'], body });
        const status = Number(/status=(\d+)/.exec(req.url ?? '')?.[1] ?? 200);
        res.writeHead(status, { 'content-type': 'application/json' }).end(JSON.stringify({ status: status < 300 ? 'ok' : 'error', failure_detail: `said ${status}` }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  });
  afterAll(() => server.close());

  it('sends the published credential and JSON, and answers the body of a success', async () => {
    const client = new GatewayClient(address());
    expect(await client.send('POST', '/v1/admin/dispatch', { operation: 'x' })).toEqual({ status: 'ok', failure_detail: 'said 200' });
    expect(seen.at(-1)).toEqual({ method: 'POST', url: '/v1/admin/dispatch', authorization: 'Bearer pal_credential', type: 'application/json', body: '{"operation":"x"}' });
    await new GatewayClient(address({ token: null })).send('GET', '/v1/admin/tokens');
    expect(seen.at(-1)).toMatchObject({ method: 'GET', authorization: undefined, type: undefined, body: '' });
  });

  it('throws a refusal as one line naming the gateway: exit 2 for 400 and 404, 1 otherwise', async () => {
    const client = new GatewayClient(address());
    for (const [status, exitCode] of [[400, 2], [404, 2], [403, 1], [503, 1]] as const) {
      const error = await client.send('GET', `/x?status=${status}`).catch((e: Error) => e);
      expect({ exitCode: (error as { exitCode?: number }).exitCode, message: (error as Error).message }).toEqual({
        exitCode,
        message: `the gateway (pid 4242, ${url}) answered ${status}: said ${status}`,
      });
    }
  });

  it('says so when the gateway stopped answering (exit 1)', async () => {
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, '127.0.0.1', resolve));
    const port = (closed.address() as AddressInfo).port;
    await new Promise((resolve) => closed.close(resolve)); // a port nothing listens on any more
    const gone = new GatewayClient(address({ url: `http://127.0.0.1:${port}` }));
    const error = await gone.send('GET', '/health').catch((e: { exitCode: number; message: string }) => e);
    expect(error).toMatchObject({ exitCode: 1 });
    expect((error as Error).message).toBe(`the gateway (pid 4242, http://127.0.0.1:${port}) stopped answering (ECONNREFUSED); run the command again once it is back, or stop it`);
  });
});
