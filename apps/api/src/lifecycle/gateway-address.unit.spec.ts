import { spawnSync } from 'node:child_process';
import { mkdtempSync, readdirSync, rmSync, statSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { acquireDataDirLock, lockPathFor } from '@palimpsest/store/pglite/data-dir-lock';
import {
  answersHealth,
  connectableUrl,
  currentGatewayAddress,
  embeddedDataDir,
  gatewayFilePath,
  readGatewayAddress,
  removeGatewayAddress,
  writeGatewayAddress,
  type GatewayAddress,
} from './gateway-address';

/** A pid that was alive a moment ago and is certainly not now. */
function deadPid(): number {
  return spawnSync(process.execPath, ['-e', '0']).pid!;
}

describe('the published gateway address (<dataDir>.gateway.json)', () => {
  let dir: string;
  let dataDir: string;
  const address = (over: Partial<GatewayAddress> = {}): GatewayAddress => ({
    pid: process.pid,
    url: 'http://127.0.0.1:1',
    version: '0.1.0',
    token: 'pal_secret',
    data_dir: dataDir,
    workspace_root: '/srv/project',
    started_at: new Date().toISOString(),
    ...over,
  });

  beforeEach(() => {
    dir = mkdtempSync(join(tmpdir(), 'palimpsest-gw-'));
    dataDir = join(dir, 'data');
  });
  afterEach(() => rmSync(dir, { recursive: true, force: true }));

  it('is written owner-only (0600) beside the data directory, by rename: no temp file is left, a rewrite replaces it whole', () => {
    const path = writeGatewayAddress(dataDir, address());
    expect(path).toBe(`${dataDir}.gateway.json`);
    expect(statSync(path).mode & 0o777).toBe(0o600);
    writeGatewayAddress(dataDir, address({ url: 'http://127.0.0.1:2' }));
    expect(readdirSync(dir)).toEqual(['data.gateway.json']);
    expect(readGatewayAddress(dataDir)).toEqual(address({ url: 'http://127.0.0.1:2', started_at: readGatewayAddress(dataDir)!.started_at }));
    expect(statSync(path).mode & 0o777).toBe(0o600);
  });

  it('reads as null when missing, not JSON, or not an address', () => {
    expect(readGatewayAddress(dataDir)).toBeNull();
    writeFileSync(gatewayFilePath(dataDir), '{"pid": 12');
    expect(readGatewayAddress(dataDir)).toBeNull();
    writeFileSync(gatewayFilePath(dataDir), JSON.stringify({ pid: -1, url: 'http://x', token: null }));
    expect(readGatewayAddress(dataDir)).toBeNull();
    writeFileSync(gatewayFilePath(dataDir), JSON.stringify({ pid: 5, url: 'ftp://x', token: null }));
    expect(readGatewayAddress(dataDir)).toBeNull();
  });

  it('carries the gateway\'s workspace root; a file that names none reads as no root', () => {
    writeGatewayAddress(dataDir, address());
    expect(readGatewayAddress(dataDir)?.workspace_root).toBe('/srv/project');
    writeFileSync(gatewayFilePath(dataDir), JSON.stringify({ pid: 5, url: 'http://127.0.0.1:1', token: null }));
    expect(readGatewayAddress(dataDir)?.workspace_root).toBeNull();
  });

  it('is current only while its pid is alive and holds the data directory lock', () => {
    writeGatewayAddress(dataDir, address());
    expect(currentGatewayAddress(dataDir)).toBeNull(); // nobody holds the lock
    const lock = acquireDataDirLock(dataDir);
    try {
      expect(currentGatewayAddress(dataDir)?.pid).toBe(process.pid);
      writeGatewayAddress(dataDir, address({ pid: deadPid() }));
      expect(currentGatewayAddress(dataDir)).toBeNull(); // a killed gateway's file
      writeGatewayAddress(dataDir, address({ pid: process.ppid })); // alive, but another process holds the lock
      expect(currentGatewayAddress(dataDir)).toBeNull();
    } finally {
      lock.release();
    }
    writeFileSync(lockPathFor(dataDir), `${deadPid()}\n`); // a stale lock names nobody
    writeGatewayAddress(dataDir, address());
    expect(currentGatewayAddress(dataDir)).toBeNull();
  });

  it('is removed only by the process that wrote it', () => {
    writeGatewayAddress(dataDir, address({ pid: process.ppid }));
    removeGatewayAddress(dataDir);
    expect(readGatewayAddress(dataDir)?.pid).toBe(process.ppid);
    writeGatewayAddress(dataDir, address());
    removeGatewayAddress(dataDir);
    expect(readGatewayAddress(dataDir)).toBeNull();
    expect(() => removeGatewayAddress(dataDir)).not.toThrow();
  });

  it('is found when current and its gateway answers /health, not when it does not answer', async () => {
    let healthy = true;
    const server: Server = createServer((req, res) => res.writeHead(req.url === '/health' && healthy ? 200 : 503).end('{}'));
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
    const lock = acquireDataDirLock(dataDir);
    try {
      writeGatewayAddress(dataDir, address({ url }));
      const found = async () => {
        const current = currentGatewayAddress(dataDir);
        return current && (await answersHealth(current.url)) ? current : null;
      };
      expect(await found()).toMatchObject({ url, token: 'pal_secret', pid: process.pid });
      healthy = false;
      expect(await found()).toBeNull();
    } finally {
      lock.release();
      server.close();
    }
  });

  it('publishes a wildcard listen host as loopback, and finds the data directory as openDb does', () => {
    expect(connectableUrl('http://0.0.0.0:3000')).toBe('http://127.0.0.1:3000');
    expect(connectableUrl('http://[::]:3000')).toBe('http://[::1]:3000');
    expect(connectableUrl('http://10.0.0.5:3000')).toBe('http://10.0.0.5:3000');
    expect(embeddedDataDir({ PALIMPSEST_DATA_DIR: '/srv/p' }, '/x')).toBe('/srv/p');
    expect(embeddedDataDir({}, '/x')).toBe('/x/.palimpsest/data');
  });
});
