import { realpathSync } from 'node:fs';
import { resolve } from 'node:path';
import type { Command } from 'commander';
import { WORKSPACE_ROOT_ENV } from '@palimpsest/workspace/workspace-root';
import type { GatewayAddress } from '@palimpsest/api/lifecycle/gateway-address';

/** `--workspace <dir>` on a command that serves tools: the same setting as PALIMPSEST_WORKSPACE_ROOT, and it wins. */
export function addWorkspaceOption(command: Command): Command {
  return command.option('--workspace <dir>', `the directory whose files agents work on (env ${WORKSPACE_ROOT_ENV}; relative to the current directory)`);
}

/** Before anything opens the root: the option, resolved against `cwd`, becomes the process's setting. */
export function applyWorkspaceOption(dir: string | undefined, env: NodeJS.ProcessEnv, cwd: string): void {
  if (dir !== undefined) env[WORKSPACE_ROOT_ENV] = resolve(cwd, dir);
}

/** The root this process was given (option or environment), or null. */
export function givenWorkspaceRoot(env: Readonly<Record<string, string | undefined>>): string | null {
  return env[WORKSPACE_ROOT_ENV] || null;
}

/** A command relayed to a gateway that works on another root than the one the command was given: exit 2. */
export class WorkspaceMismatchError extends Error {
  readonly exitCode = 2;
}

/**
 * Refuses to go through a gateway whose workspace root is not the one this command was given: its tools
 * would read and write the gateway's root, whatever this command was told. A command given no root
 * takes the gateway's.
 */
export function assertSameWorkspaceRoot(gateway: GatewayAddress, env: Readonly<Record<string, string | undefined>>): void {
  const given = givenWorkspaceRoot(env);
  if (given === null || sameDirectory(given, gateway.workspace_root)) return;
  const theirs = gateway.workspace_root === null ? 'has no workspace root' : `works on the workspace root ${gateway.workspace_root}`;
  throw new WorkspaceMismatchError(
    `the gateway holding ${gateway.data_dir} (palimpsest api, pid ${gateway.pid}, ${gateway.url}) ${theirs}, ` +
      `but this command was given ${given} (--workspace or ${WORKSPACE_ROOT_ENV}); through the gateway its tools would work on the gateway's root. ` +
      `Restart the gateway with \`palimpsest api --workspace ${given}\`, give this command the gateway's root (or none), ` +
      'or use another PALIMPSEST_DATA_DIR',
  );
}

/** One directory under two spellings (a trailing slash, a symlinked parent) is the same root. */
function sameDirectory(a: string, b: string | null): boolean {
  if (b === null) return false;
  if (resolve(a) === resolve(b)) return true;
  try {
    return realpathSync(a) === realpathSync(b);
  } catch {
    return false;
  }
}
