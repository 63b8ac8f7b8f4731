import { DirectLauncher, type ProcessLauncher } from './process-launcher';
import { SpawnerLauncher } from './spawner-launcher';

export const COMMAND_SPAWNER_ENV = 'PALIMPSEST_COMMAND_SPAWNER';

export type LauncherChoice = 'spawner' | 'direct';
type Env = Readonly<Record<string, string | undefined>>;

/**
 * PALIMPSEST_COMMAND_SPAWNER: unset, empty or 1 forks commands from a small spawner process (a fork of the
 * service copies the page tables of its whole heap, the embedded database's included: about 15 ms a
 * command; the commands are the spawner's children, and it kills them when the service goes); 0 forks
 * them from the service itself; anything else refuses to start.
 */
export function launcherChoiceFromEnv(env: Env): LauncherChoice {
  const value = env[COMMAND_SPAWNER_ENV];
  if (value === undefined || value === '' || value === '1') return 'spawner';
  if (value === '0') return 'direct';
  throw new Error(`${COMMAND_SPAWNER_ENV} must be 1 (spawner) or 0 (fork from the service); got ${JSON.stringify(value)}.`);
}

/** The launcher chosen; `commandEnv` is what a command forked by the service inherits. */
export function commandLauncher(choice: LauncherChoice, commandEnv: Env): ProcessLauncher {
  return choice === 'spawner' ? new SpawnerLauncher() : new DirectLauncher(commandEnv);
}
