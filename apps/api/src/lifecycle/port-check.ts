import { createServer } from 'node:net';

/** The port is taken (or not ours to bind): said once, clearly, before anything starts. */
export class PortUnavailableError extends Error {
  readonly exitCode = 2;
  constructor(host: string, port: number, code: string) {
    super(
      code === 'EADDRINUSE'
        ? `${host}:${port} is already in use by another process: stop it, or pass --port (PORT) for another one`
        : `cannot listen on ${host}:${port} (${code}): pick another --port/--host`,
    );
  }
}

/**
 * Binds and releases host:port, so a taken port is one clear error before the store, the Nest
 * application and its "successfully started" line. Port 0 (any free port) is always available.
 */
export function assertPortFree(host: string, port: number): Promise<void> {
  if (port === 0) return Promise.resolve();
  return new Promise((resolve, reject) => {
    const probe = createServer();
    probe.once('error', (err: NodeJS.ErrnoException) => reject(new PortUnavailableError(host, port, err.code ?? 'unknown')));
    probe.listen({ host, port, exclusive: true }, () => probe.close(() => resolve()));
  });
}
