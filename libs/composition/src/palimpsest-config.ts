import { resolve } from 'node:path';
import { PUBLISH_MODES, type PublishMode } from '@palimpsest/core/target/target.events';
import { candidateConfig, type CandidateConfig } from '@palimpsest/application/candidates/shared/candidate-config';
import { syncOnSaveFromEnv } from '@palimpsest/application/save-checkpoint/save-to-workspace';
import { lagThresholdFrom } from '@palimpsest/application/queries/projector-status.handler';
import { storeKeptPaths } from '@palimpsest/store/kept-paths';
import { readStoreConfig, type Env, type StoreConfig } from '@palimpsest/store/store-config';
import { grepTimeoutFromEnv } from '@palimpsest/workspace/workspace-grep';
import { leaseWaitFromEnv } from '@palimpsest/workspace/workspace-lease';
import { launcherChoiceFromEnv, type LauncherChoice } from '@palimpsest/workspace/process/launcher-choice';
import { WORKSPACE_ROOT_ENV, type KeptPath } from '@palimpsest/workspace/workspace-root';

/**
 * Everything the environment configures, read once at start by a composition root (readConfig) and
 * passed in: no library reads the environment itself. Each variable keeps its meaning and default (README,
 * docs/configuration); an invalid value throws here, so the process refuses to start.
 */
export interface PalimpsestConfig {
  /** The working directory relative paths are resolved against. */
  cwd: string;
  store: StoreConfig;
  /** PALIMPSEST_WORKSPACE_ROOT as given, or null when unset or empty. */
  workspaceRoot: string | null;
  /** PALIMPSEST_LEASE_WAIT_MS (default 10 s). */
  leaseWaitMs: number;
  /** PALIMPSEST_GREP_TIMEOUT_MS (default 1 s). */
  grepTimeoutMs: number;
  /** PALIMPSEST_WORKSPACE_SYNC_ON_SAVE (default off). */
  syncOnSave: boolean;
  /** PALIMPSEST_WORKSPACE_PUBLISH (default on_accept). */
  workspacePublish: PublishMode;
  /** PALIMPSEST_STRICT_OBSERVATION_MODE (default off). */
  strictObservation: boolean;
  /** PALIMPSEST_CANDIDATE_TTL_MS, APPROVAL_WAIT_MS, PALIMPSEST_APPROVAL_POLL_MS, PALIMPSEST_POLICY_FILE. */
  candidates: CandidateConfig;
  /** PATH, passed to command checks (default /usr/bin:/bin). */
  commandPath: string;
  /** PALIMPSEST_PROJECTION_LAG_DEGRADED_S (default 30). */
  projectionLagDegradedS: number;
  /** PALIMPSEST_COMMAND_SPAWNER (default: the spawner) and the environment a command forked by the service inherits. */
  commandLauncher: LauncherChoice;
  commandEnv: Env;
}

export function readConfig(env: Env, cwd: string): PalimpsestConfig {
  return {
    cwd,
    store: readStoreConfig(env, cwd),
    workspaceRoot: env[WORKSPACE_ROOT_ENV] || null,
    leaseWaitMs: leaseWaitFromEnv(env),
    grepTimeoutMs: grepTimeoutFromEnv(env),
    syncOnSave: syncOnSaveFromEnv(env),
    workspacePublish: workspacePublishFromEnv(env),
    strictObservation: strictObservationFromEnv(env),
    candidates: candidateConfig(env),
    commandPath: env.PATH ?? '/usr/bin:/bin',
    projectionLagDegradedS: lagThresholdFrom(env),
    commandLauncher: launcherChoiceFromEnv(env),
    commandEnv: env,
  };
}

export const WORKSPACE_PUBLISH_ENV = 'PALIMPSEST_WORKSPACE_PUBLISH';

/** PALIMPSEST_WORKSPACE_PUBLISH: on_accept (unset or empty too) or on_save; anything else refuses to start. */
export function workspacePublishFromEnv(env: Env): PublishMode {
  const value = (env[WORKSPACE_PUBLISH_ENV] ?? '').trim();
  if (value === '') return 'on_accept';
  if ((PUBLISH_MODES as readonly string[]).includes(value)) return value as PublishMode;
  throw new Error(`${WORKSPACE_PUBLISH_ENV} must be on_accept or on_save; got ${JSON.stringify(value)}.`);
}

/** PALIMPSEST_STRICT_OBSERVATION_MODE: 1 turns it on, unset, empty or 0 leaves it off; anything else refuses to start. */
export function strictObservationFromEnv(env: Env): boolean {
  const value = env.PALIMPSEST_STRICT_OBSERVATION_MODE;
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(`PALIMPSEST_STRICT_OBSERVATION_MODE must be 1 (on) or 0 (off); got ${JSON.stringify(value)}.`);
}

/**
 * What this process keeps on disk, from its configuration: the store's files (storeKeptPaths) and the
 * owner's policy document, which an agent able to edit it would use to widen its own rights.
 */
export function keptPaths(config: PalimpsestConfig): KeptPath[] {
  const kept: KeptPath[] = storeKeptPaths(config.store);
  const policyFile = config.candidates.policyFile;
  if (policyFile) kept.push({ path: resolve(config.cwd, policyFile), what: "the owner's policy document" });
  return kept;
}
