import { DirectLauncher, type ProcessLauncher } from './process-launcher';
import { SpawnerLauncher } from './spawner-launcher';

export const COMMAND_SPAWNER_ENV = 'PALIMPSEST_COMMAND_SPAWNER';

/**
 * PALIMPSEST_COMMAND_SPAWNER: 1 forks commands from a small spawner process (cheap forks beside a large
 * service; the commands are the spawner's children), unset, empty or 0 forks them from the service
 * itself; anything else refuses to start.
 */
export function commandLauncher(value: string | undefined = process.env[COMMAND_SPAWNER_ENV]): ProcessLauncher {
  if (value === '1') return new SpawnerLauncher();
  if (value === undefined || value === '' || value === '0') return new DirectLauncher();
  throw new Error(`${COMMAND_SPAWNER_ENV} must be 1 (spawner) or 0 (fork from the service); got ${JSON.stringify(value)}.`);
}
