import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { AppContext } from '@palimpsest/application/app-context';
import { answersHealth, currentGatewayAddress, type GatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';
import { DataDirInUseError } from '@palimpsest/store/errors';
import { GatewayClient } from './gateway-client';
import { withApp } from './runtime';
import { assertSameWorkspaceRoot } from './workspace-option';
import { cliEnv } from './cli-config';

/**
 * The one seam between a store-using command and its store: `local` runs with the store open in this
 * process (PostgreSQL, or an embedded data directory nobody holds); `gateway` runs when a running
 * `palimpsest api` holds the embedded data directory, through its HTTP routes. Each command gives
 * both, side by side, and they print alike.
 */
export interface StoreAccess<T> {
  local(ctx: AppContext): Promise<T>;
  gateway(gateway: GatewayClient): Promise<T>;
}

/** The data directory is held by a process this command cannot go through: one line, exit 1. */
export class StoreHeldError extends Error {
  readonly exitCode = 1;
}

export async function withStore<T>(access: StoreAccess<T>, opts: { migrate?: boolean } = {}): Promise<T> {
  let held: DataDirInUseError;
  try {
    return await withApp(access.local, opts);
  } catch (error) {
    if (!(error instanceof DataDirInUseError)) throw error; // thrown by the open, before `local` ran
    held = error;
  }
  return access.gateway(await gatewayHolding(held));
}

async function gatewayHolding(held: DataDirInUseError): Promise<GatewayClient> {
  return new GatewayClient(await gatewayAddressHolding(held));
}

/**
 * The address of the gateway holding the data directory, or a StoreHeldError saying what to do instead
 * (a WorkspaceMismatchError when the gateway works on another workspace root than this command was given).
 */
export async function gatewayAddressHolding(held: DataDirInUseError): Promise<GatewayAddress> {
  const { dataDir, pid } = held;
  const address = currentGatewayAddress(dataDir);
  const alternatives = 'or use another PALIMPSEST_DATA_DIR, or DATABASE_URL for PostgreSQL';
  if (!address) {
    const name = processName(pid);
    if (name === 'palimpsest api') {
      throw new StoreHeldError(
        `data directory is in use by pid ${pid} (palimpsest api, ${dataDir}), which has not published its address yet: ` +
          `wait until it listens and run the command again, ${alternatives}`,
      );
    }
    throw new StoreHeldError(
      `data directory is in use by pid ${pid} (${[name, dataDir].filter(Boolean).join(', ')}), which is not a gateway to go through: ` +
        `stop it and run the command again, or run \`palimpsest api\` in its place (commands then go through it), ${alternatives}`,
    );
  }
  if (!(await answersHealth(address.url))) {
    throw new StoreHeldError(
      `data directory is in use by pid ${pid} (${dataDir}), a palimpsest api at ${address.url} that does not answer /health: ` +
        `wait until it has started, or stop it (kill ${pid}) and run the command again, ${alternatives}`,
    );
  }
  assertSameWorkspaceRoot(address, cliEnv());
  return address;
}

/** `palimpsest mcp`, or `node`, where the system tells (Linux /proc); else nothing. */
function processName(pid: number): string {
  try {
    const argv = readFileSync(`/proc/${pid}/cmdline`, 'utf8').split('\0').filter(Boolean);
    const cli = argv.findIndex((a) => /palimpsest(\.js)?$/.test(a));
    if (cli >= 0) return `palimpsest ${argv[cli + 1] ?? ''}`.trim();
    return argv[0] ? basename(argv[0]) : '';
  } catch {
    return '';
  }
}
