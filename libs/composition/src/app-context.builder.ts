import type { AppContext } from '@palimpsest/application/app-context';
import { candidateSettings } from '@palimpsest/application/candidates/shared/candidate-settings';
import { OutlineCache } from '@palimpsest/application/observe-scope/outline-cache';
import { systemClock } from '@palimpsest/application/ports/clock.port';
import { randomIds } from '@palimpsest/application/ports/id-generator.port';
import { ContentCache } from '@palimpsest/projections/content/content-cache';
import { inlineProjections } from '@palimpsest/projections/inline-registry';
import { advisoryLeaseProvider } from '@palimpsest/store/advisory-lease';
import { AppendBatcher } from '@palimpsest/store/append-batcher';
import type { Db } from '@palimpsest/store/db';
import { EventStore } from '@palimpsest/store/event-store';
import { WakeNotifier } from '@palimpsest/store/wake-notifier';
import { structureEngine } from '@palimpsest/structure/structure-engine';
import { localLeaseProvider, waitingLeases } from '@palimpsest/workspace/workspace-lease';
import { reservingKept, sharedWorkspaceRoot, type WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { keptPaths, readConfig, type PalimpsestConfig } from './palimpsest-config';
import { CommandRuns } from '@palimpsest/application/commands/shared/command-runs';
import type { PolicyConfig } from '@palimpsest/core/policy/policy-config';
import { loadingCommandGate } from '@palimpsest/workspace/shell/loading-command-gate';
import { DEFAULT_PROCESS_LIMITS, ProcessManager } from '@palimpsest/workspace/process/process-manager';
import { commandLauncher } from '@palimpsest/workspace/process/launcher-choice';
import { CodeGraphStates } from '@palimpsest/application/code-graph/project-states';
import { HeldSnapshots } from '@palimpsest/application/snapshots/held-snapshots';
import { TreeSitterCodeGraph } from '@palimpsest/structure/graph/code-graph-engine';

/**
 * The one place the application's ports are filled with adapters (the store's, the workspace's, the
 * pinned parsers), from the configuration read once at start. The roots (apps/*) call it; tests and
 * benchmarks override what they need. Without a configuration: every variable's default.
 */
export function appContext(db: Db, overrides: Partial<Omit<AppContext, 'db'>> = {}, config: PalimpsestConfig = defaultConfig()): AppContext {
  const root = overrides.workspace !== undefined ? overrides.workspace : sharedWorkspaceRoot(config.workspaceRoot);
  const wakes = overrides.wakes ?? new WakeNotifier(db);
  const appends = overrides.appends ?? new AppendBatcher(db);
  const workspace = reserving(root, config);
  const candidates = overrides.candidates ?? candidateSettings(config.candidates, config.commandPath);
  return {
    db,
    clock: overrides.clock ?? systemClock,
    ids: overrides.ids ?? randomIds,
    contents: overrides.contents ?? new ContentCache(),
    wakes,
    appends,
    // The one append of every aggregate, with the inline projections registered once, here.
    store: overrides.store ?? new EventStore(db, inlineProjections(), { appends, wakes }),
    candidates,
    workspace,
    leases: overrides.leases ?? waitingLeases(advisoryLeaseProvider(db, localLeaseProvider()), config.leaseWaitMs),
    outlines: overrides.outlines ?? new OutlineCache(structureEngine()),
    strictObservation: overrides.strictObservation ?? config.strictObservation,
    workspacePublish: overrides.workspacePublish ?? config.workspacePublish,
    grepTimeoutMs: overrides.grepTimeoutMs ?? config.grepTimeoutMs,
    syncOnSave: overrides.syncOnSave ?? config.syncOnSave,
    commands: overrides.commands ?? commandRuns(workspace, candidates.policy, config),
    codeGraph: overrides.codeGraph ?? new CodeGraphStates(new TreeSitterCodeGraph()),
    heldSnapshots: overrides.heldSnapshots ?? new HeldSnapshots(),
    ...(overrides.replica ? { replica: overrides.replica } : {}),
  };
}

/** The command tools at the workspace root, under the owner's policy read at the argument level. */
const commandRuns = (workspace: WorkspaceRoot | null, policy: PolicyConfig, config: PalimpsestConfig): CommandRuns =>
  new CommandRuns(workspace ? new ProcessManager(workspace.path, DEFAULT_PROCESS_LIMITS, commandLauncher(config.commandLauncher, config.commandEnv)) : null, loadingCommandGate(policy));

/** Whatever Palimpsest keeps inside the workspace root is reserved: no tool reaches it. */
const reserving = (root: WorkspaceRoot | null, config: PalimpsestConfig): WorkspaceRoot | null =>
  root ? reservingKept(root, keptPaths(config)) : null;

let defaults: PalimpsestConfig | undefined;

/** Every variable's default, relative to this process's working directory (tests and benchmarks). */
export function defaultConfig(): PalimpsestConfig {
  return (defaults ??= readConfig({}, process.cwd()));
}
