import { resolve } from 'node:path';
import { AppendBatcher } from '@palimpsest/store/append-batcher';
import type { Db } from '@palimpsest/store/db';
import { WakeNotifier } from '@palimpsest/store/wake-notifier';
import { systemClock, type Clock } from './ports/clock.port';
import { randomIds, type IdGenerator } from './ports/id-generator.port';
import { candidateSettings, type CandidateSettings } from './candidates/shared/candidate-settings';
import { ContentCache } from '@palimpsest/projections/content/content-cache';
import { reservingKept, workspaceRootFromEnv, type KeptPath, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { storeKeptPaths } from '@palimpsest/store/kept-paths';
import { leaseWaitFromEnv, localLeaseProvider, waitingLeases, type WaitingLeaseProvider } from '@palimpsest/workspace/workspace-lease';
import { advisoryLeaseProvider } from '@palimpsest/store/advisory-lease';
import { structureEngine } from '@palimpsest/structure/structure-engine';
import { OutlineCache } from './observe-scope/outline-cache';
import { PUBLISH_MODES, type PublishMode } from '@palimpsest/core/target/target.events';

/** What every handler needs: the database, time and identity. Passed explicitly, never global. */
export interface AppContext {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  contents: ContentCache;
  /** Listeners' wake-ups, sent after commit (see WakeNotifier). */
  wakes: WakeNotifier;
  /** One-statement optimistic commits, batched under load (see AppendBatcher). */
  appends: AppendBatcher;
  /** Candidate lifetimes, approval waits and the operator's policy document, read once at start. */
  candidates: CandidateSettings;
  /**
   * The workspace root (PALIMPSEST_WORKSPACE_ROOT), opened at start and held for the process's life, or
   * null when none is configured. A misconfigured root refuses to start (WorkspaceRootError). Whatever
   * Palimpsest keeps inside it (keptPaths) is reserved: no tool reaches it.
   */
  workspace: WorkspaceRoot | null;
  /**
   * Exclusive leases on destination directories for publications: this machine's (in-process and across
   * processes), plus on PostgreSQL an advisory lock, so gateways on several machines sharing one database
   * serialize too. Publications wait their turn for a held lease up to PALIMPSEST_LEASE_WAIT_MS.
   */
  leases: WaitingLeaseProvider;
  /** The structural engine (pinned parsers) behind palimpsest_observe_scope, with its outlines per target version. */
  outlines: OutlineCache;
  /**
   * Strict observation mode (PALIMPSEST_STRICT_OBSERVATION_MODE=1, read once at start): the unobserved
   * write tools (submit_edits, submit_operations, submit_replacement) record a rejection, OBSERVATION_REQUIRED.
   */
  strictObservation: boolean;
  /**
   * The publication mode of a new binding that names none (PALIMPSEST_WORKSPACE_PUBLISH, read once at
   * start): on_accept (default) publishes an accepted direct submission with it; on_save waits for a save.
   */
  workspacePublish: PublishMode;
}

export const WORKSPACE_PUBLISH_ENV = 'PALIMPSEST_WORKSPACE_PUBLISH';

/** PALIMPSEST_WORKSPACE_PUBLISH: on_accept (unset or empty too) or on_save; anything else refuses to start. */
export function workspacePublishFromEnv(env: NodeJS.ProcessEnv = process.env): PublishMode {
  const value = (env[WORKSPACE_PUBLISH_ENV] ?? '').trim();
  if (value === '') return 'on_accept';
  if ((PUBLISH_MODES as readonly string[]).includes(value)) return value as PublishMode;
  throw new Error(`${WORKSPACE_PUBLISH_ENV} must be on_accept or on_save; got ${JSON.stringify(value)}.`);
}

/** PALIMPSEST_STRICT_OBSERVATION_MODE: 1 turns it on, unset, empty or 0 leaves it off; anything else refuses to start. */
export function strictObservationFromEnv(env: NodeJS.ProcessEnv = process.env): boolean {
  const value = env.PALIMPSEST_STRICT_OBSERVATION_MODE;
  if (value === undefined || value === '' || value === '0') return false;
  if (value === '1') return true;
  throw new Error(`PALIMPSEST_STRICT_OBSERVATION_MODE must be 1 (on) or 0 (off); got ${JSON.stringify(value)}.`);
}

/**
 * What this process keeps on disk, from its configuration: the store's files (storeKeptPaths) and the
 * owner's policy document, which an agent able to edit it would use to widen its own rights.
 */
export function keptPaths(env: NodeJS.ProcessEnv = process.env, cwd: string = process.cwd()): KeptPath[] {
  const kept: KeptPath[] = storeKeptPaths(env, cwd);
  if (env.PALIMPSEST_POLICY_FILE) kept.push({ path: resolve(cwd, env.PALIMPSEST_POLICY_FILE), what: "the owner's policy document" });
  return kept;
}

const reserving = (root: WorkspaceRoot | null): WorkspaceRoot | null => (root ? reservingKept(root, keptPaths()) : null);

export function appContext(db: Db, overrides: Partial<Omit<AppContext, 'db'>> = {}): AppContext {
  return {
    db,
    clock: overrides.clock ?? systemClock,
    ids: overrides.ids ?? randomIds,
    contents: overrides.contents ?? new ContentCache(),
    wakes: overrides.wakes ?? new WakeNotifier(db),
    appends: overrides.appends ?? new AppendBatcher(db),
    candidates: overrides.candidates ?? candidateSettings(),
    workspace: reserving(overrides.workspace !== undefined ? overrides.workspace : workspaceRootFromEnv()),
    leases: overrides.leases ?? waitingLeases(advisoryLeaseProvider(db, localLeaseProvider()), leaseWaitFromEnv()),
    outlines: overrides.outlines ?? new OutlineCache(structureEngine()),
    strictObservation: overrides.strictObservation ?? strictObservationFromEnv(),
    workspacePublish: overrides.workspacePublish ?? workspacePublishFromEnv(),
  };
}
