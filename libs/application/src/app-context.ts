import type { AppendBatcher } from '@palimpsest/store/append-batcher';
import type { Db } from '@palimpsest/store/db';
import type { EventStore } from '@palimpsest/store/event-store';
import type { WakeNotifier } from '@palimpsest/store/wake-notifier';
import type { Clock } from './ports/clock.port';
import type { IdGenerator } from './ports/id-generator.port';
import type { CandidateSettings } from './candidates/shared/candidate-settings';
import type { ContentCache } from '@palimpsest/projections/content/content-cache';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import type { WaitingLeaseProvider } from '@palimpsest/workspace/workspace-lease';
import type { OutlineCache } from './observe-scope/outline-cache';
import type { PublishMode } from '@palimpsest/core/target/target.events';
import type { CommandRuns } from './commands/shared/command-runs';
import type { CodeGraphStates } from './code-graph/project-states';
import type { ActiveProjects } from './relay/active-projects';
import type { ProjectRelay } from './relay/project-relay.port';
import type { ReadReplica } from './read-models/read-replica';
import type { HeldSnapshots } from './snapshots/held-snapshots';

/**
 * What every handler needs: the database, time and identity, and the ports and settings of the process.
 * Passed explicitly, never global; filled by the composition root (libs/composition: app-context.builder.ts)
 * from the configuration read once at start, so no use case builds an adapter or reads the environment.
 */
export interface AppContext {
  db: Db;
  clock: Clock;
  ids: IdGenerator;
  contents: ContentCache;
  /** Listeners' wake-ups, sent after commit (see WakeNotifier). */
  wakes: WakeNotifier;
  /** One-statement optimistic commits, batched under load (see AppendBatcher): the store's group commit. */
  appends: AppendBatcher;
  /** The one append of every aggregate, running the inline projections registered for its events (EventStore). */
  store: EventStore;
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
  /** The budget of one palimpsest_grep, in ms (PALIMPSEST_GREP_TIMEOUT_MS, read once at start). */
  grepTimeoutMs: number;
  /** palimpsest_save without sync_workspace publishes (PALIMPSEST_WORKSPACE_SYNC_ON_SAVE, read once at start). */
  syncOnSave: boolean;
  /** The command tools: the workspace's processes, the gate that decides each line, the runs started here. */
  commands: CommandRuns;
  /** The code graph (parsers and the TypeScript language service behind a port) and the project states it answers from. */
  codeGraph: CodeGraphStates;
  /** Read-only sessions' captures of `latest`: kept in this process, never recorded (HeldSnapshots). */
  heldSnapshots: HeldSnapshots;
  /**
   * A gateway's executors (palimpsest connect): the projects they hold, the relay of file and command tools
   * to them, and each client's active project. Absent where no executor can connect (stdio, the CLI).
   */
  relay?: { port: ProjectRelay; active: ActiveProjects };
  /**
   * A streaming replica of the database (PALIMPSEST_READ_REPLICA_URL) for the reads that tolerate
   * staleness (read-models/replica-reads.ts); absent: every read goes to `db`.
   */
  replica?: ReadReplica;
}
