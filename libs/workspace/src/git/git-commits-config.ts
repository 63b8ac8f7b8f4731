import { resolve } from 'node:path';
import { WORKSPACE_ROOT_ENV } from '../workspace-root';

export const GIT_COMMITS_ENV = 'PALIMPSEST_GIT_COMMITS';

/** The git reactor's settings: on, the workspace root whose repository takes a commit per accepted attempt. */
export interface GitCommitsConfig {
  workspaceRoot: string;
}

/**
 * PALIMPSEST_GIT_COMMITS: `attempt` publishes each accepted attempt as a commit; unset, empty or `off`
 * publishes nothing (the default). `attempt` without a workspace root, or any other value, throws: a
 * process refuses to start rather than run without the commits its operator asked for.
 */
export function gitCommitsConfigFrom(env: Readonly<Record<string, string | undefined>>, cwd: string = process.cwd()): GitCommitsConfig | null {
  const raw = (env[GIT_COMMITS_ENV] ?? '').trim().toLowerCase();
  if (raw === '' || raw === 'off') return null;
  if (raw !== 'attempt') throw new RangeError(`${GIT_COMMITS_ENV} must be attempt or off, got ${JSON.stringify(env[GIT_COMMITS_ENV])}`);
  const root = env[WORKSPACE_ROOT_ENV];
  if (!root) throw new RangeError(`${GIT_COMMITS_ENV}=attempt needs a workspace root (${WORKSPACE_ROOT_ENV})`);
  return { workspaceRoot: resolve(cwd, root) };
}
