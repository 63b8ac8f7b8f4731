import { randomBytes } from 'node:crypto';
import { chmodSync, closeSync, openSync, readFileSync, renameSync, unlinkSync, writeSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { isAlive, lockPathFor } from '@palimpsest/store/pglite/data-dir-lock';

/**
 * Where a gateway that holds an embedded data directory can be reached: `<dataDir>.gateway.json`,
 * beside the lock file, owner-only (0600) because it carries a bearer token with every scope. The
 * gateway writes it once it listens and removes it at a clean shutdown; a CLI command that finds the
 * data directory locked reads it to go through the gateway instead. A file left by a killed gateway is
 * stale — its pid is dead, or is not the one holding the lock — and is ignored.
 */
export interface GatewayAddress {
  pid: number;
  /** Where to connect: a wildcard listen host is published as loopback. */
  url: string;
  version: string;
  /** The credential created at this start (every scope, no owner policy); null with --no-auth. */
  token: string | null;
  data_dir: string;
  /**
   * The workspace root the gateway's tools work under (as it was given, absolute), or null without one.
   * A command relayed through the gateway compares it with its own and refuses to start on a difference.
   */
  workspace_root: string | null;
  started_at: string;
}

/** The name of the token published in the file: every scope, revoked at shutdown and replaced at the next start. */
export const GATEWAY_CREDENTIAL_NAME = 'gateway credential (palimpsest api, for the CLI)';

export function gatewayFilePath(dataDir: string): string {
  return `${resolve(dataDir)}.gateway.json`;
}

/** The embedded store's data directory as openDb() chooses it from the environment. */
export { embeddedDataDirOf as embeddedDataDir } from '@palimpsest/store/store-config';

/** `http://0.0.0.0:3000` → `http://127.0.0.1:3000`, `http://[::]:3000` → `http://[::1]:3000`. */
export function connectableUrl(url: string): string {
  return url.replace(/^http:\/\/0\.0\.0\.0(?=[:/]|$)/, 'http://127.0.0.1').replace(/^http:\/\/\[::\](?=[:/]|$)/, 'http://[::1]');
}

/** Written to a private temp file (mode 0600 from its creation), then renamed over: a reader sees all or nothing. */
export function writeGatewayAddress(dataDir: string, address: GatewayAddress): string {
  const path = gatewayFilePath(dataDir);
  const temp = `${path}.${process.pid}.${randomBytes(4).toString('hex')}.tmp`;
  const fd = openSync(temp, 'wx', 0o600);
  try {
    writeSync(fd, `${JSON.stringify(address, null, 2)}\n`);
  } finally {
    closeSync(fd);
  }
  try {
    chmodSync(temp, 0o600); // the umask may only narrow the mode, but say it once more
    renameSync(temp, path);
  } catch (error) {
    unlinkSync(temp);
    throw error;
  }
  return path;
}

/** The published address as written, or null when there is none or it is unreadable. */
export function readGatewayAddress(dataDir: string): GatewayAddress | null {
  let text: string;
  try {
    text = readFileSync(gatewayFilePath(dataDir), 'utf8');
  } catch {
    return null;
  }
  try {
    return asAddress(JSON.parse(text));
  } catch {
    return null;
  }
}

function asAddress(value: unknown): GatewayAddress | null {
  if (value === null || typeof value !== 'object') return null;
  const a = value as Record<string, unknown>;
  const { pid, url, version, token, data_dir, workspace_root, started_at } = a;
  if (typeof pid !== 'number' || !Number.isSafeInteger(pid) || pid <= 0) return null;
  if (typeof url !== 'string' || !/^https?:\/\//.test(url) || !(token === null || typeof token === 'string')) return null;
  return {
    pid,
    url,
    version: String(version ?? ''),
    token,
    data_dir: String(data_dir ?? ''),
    workspace_root: typeof workspace_root === 'string' ? workspace_root : null,
    started_at: String(started_at ?? ''),
  };
}

/** Removes the published file if it is this process's (`pid`): a newer gateway's file is left alone. */
export function removeGatewayAddress(dataDir: string, pid: number = process.pid): void {
  if (readGatewayAddress(dataDir)?.pid !== pid) return;
  try {
    unlinkSync(gatewayFilePath(dataDir));
  } catch {
    // already gone
  }
}

/** The pid in `<dataDir>.lock`, or null when nothing holds the data directory. */
export function lockHolder(dataDir: string): number | null {
  try {
    const pid = Number(readFileSync(lockPathFor(dataDir), 'utf8').trim());
    return Number.isSafeInteger(pid) && pid > 0 && isAlive(pid) ? pid : null;
  } catch {
    return null;
  }
}

/** The published address if it is current: its pid alive and the one holding the lock. */
export function currentGatewayAddress(dataDir: string): GatewayAddress | null {
  const address = readGatewayAddress(dataDir);
  if (!address || !isAlive(address.pid)) return null;
  return lockHolder(dataDir) === address.pid ? address : null;
}

/** Answers /health within `timeoutMs`: the gateway is up, its store reachable and migrated. */
export async function answersHealth(url: string, timeoutMs = 3000): Promise<boolean> {
  try {
    const response = await fetch(`${url}/health`, { signal: AbortSignal.timeout(timeoutMs) });
    await response.arrayBuffer();
    return response.ok;
  } catch {
    return false;
  }
}
