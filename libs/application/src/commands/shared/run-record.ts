import type { CommandRunCommand } from '@palimpsest/core/command-run/command-run.commands';
import { decide, evolve } from '@palimpsest/core/command-run/command-run.decider';
import type { CommandRunEvent } from '@palimpsest/core/command-run/command-run.events';
import { initialCommandRunState, type CommandRunState } from '@palimpsest/core/command-run/command-run.state';
import { appendCommandRunEvents, loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import type { AppContext } from '../../app-context';
import type { RunLog, RunStep } from './command-runs';

/**
 * One run's stream as this process writes it: each step decided on the state the steps before it left,
 * appended one after another (a step never overtakes the one before it).
 */
export class RunRecord implements RunLog {
  private state: CommandRunState = initialCommandRunState;
  private version = 0;
  private tail: Promise<void> = Promise.resolve();

  /** `loaded`: the run's stream as read, to go on from (a new run starts empty). */
  constructor(private readonly ctx: AppContext, readonly runId: string, private readonly metadata: Record<string, unknown>, loaded?: { events: CommandRunEvent[]; streamVersion: number }) {
    if (loaded) {
      for (const event of loaded.events) this.state = evolve(this.state, event);
      this.version = loaded.streamVersion;
    }
  }

  /** The run as this record last saw it. */
  get current(): CommandRunState {
    return this.state;
  }

  /** Reads the stream again: another writer (an operator deciding the run's approval) may have appended. */
  reload(): Promise<void> {
    const next = this.tail.then(async () => {
      const loaded = await loadCommandRun(this.ctx.db, this.runId);
      let state = initialCommandRunState;
      for (const event of loaded.events) state = evolve(state, event);
      this.state = state;
      this.version = loaded.streamVersion;
    });
    this.tail = next.catch(() => undefined);
    return next;
  }

  record(step: RunStep): Promise<void> {
    const next = this.tail.then(() => this.append(step));
    this.tail = next.catch(() => undefined);
    return next;
  }

  private async append(step: RunStep): Promise<void> {
    const now = this.ctx.clock.now();
    const command = { ...step, run_id: this.runId, now } as CommandRunCommand;
    const decision = decide(command, this.state);
    if (decision.kind === 'refused') throw new Error(`command run ${this.runId}: ${decision.refusal.detail}`);
    this.version = await appendCommandRunEvents(this.ctx.db, this.runId, this.version, decision.events, now, this.metadata);
    for (const event of decision.events) this.state = evolve(this.state, event);
  }
}
