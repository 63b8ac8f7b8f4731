import type { CommandRunCommand } from '@palimpsest/core/command-run/command-run.commands';
import { decide, evolve } from '@palimpsest/core/command-run/command-run.decider';
import type { CommandRunEvent } from '@palimpsest/core/command-run/command-run.events';
import { initialCommandRunState, type CommandRunState } from '@palimpsest/core/command-run/command-run.state';
import { appendCommandRunEvents, loadCommandRun } from '@palimpsest/projections/command-runs/command-run-store';
import type { AppContext } from '../../app-context';
import type { RunLog, RunStep } from './command-runs';

interface Queued {
  step: RunStep;
  done: (error?: unknown) => void;
}

/**
 * One run's stream as this process writes it: each step decided on the state the steps before it left,
 * in the order recorded (a step never overtakes the one before it). Steps recorded while an append is
 * under way go together in the next one; a step may also be held a while (hold) to go with the next.
 */
export class RunRecord implements RunLog {
  private state: CommandRunState = initialCommandRunState;
  private version = 0;
  private tail: Promise<void> = Promise.resolve();
  private queue: Queued[] = [];
  private flushing = false;
  private holdTimer: NodeJS.Timeout | null = null;

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
    const recorded = this.enqueue(step);
    this.flush();
    return recorded;
  }

  /** Record `step` with the next step recorded, or on its own after `ms`, whichever comes first. */
  hold(step: RunStep, ms: number): Promise<void> {
    const recorded = this.enqueue(step);
    this.holdTimer ??= setTimeout(() => this.flush(), ms);
    return recorded;
  }

  /** Records what `hold` keeps back now, without waiting for its time. */
  async recordHeld(): Promise<void> {
    this.flush();
    await this.tail;
  }

  private enqueue(step: RunStep): Promise<void> {
    return new Promise<void>((resolve, reject) => this.queue.push({ step, done: (error) => (error === undefined ? resolve() : reject(error)) }));
  }

  private flush(): void {
    if (this.holdTimer) clearTimeout(this.holdTimer);
    this.holdTimer = null;
    if (this.flushing || this.queue.length === 0) return;
    this.flushing = true;
    const batch = this.queue.splice(0);
    const next = this.tail.then(() => this.append(batch.map((q) => q.step)));
    this.tail = next.then(
      () => batch.forEach((q) => q.done()),
      (error: unknown) => batch.forEach((q) => q.done(error ?? new Error('append failed'))),
    ).finally(() => {
      this.flushing = false;
      this.flush();
    });
  }

  /** Decides each step on the state the ones before it left, then appends them all in one statement. */
  private async append(steps: RunStep[]): Promise<void> {
    const now = this.ctx.clock.now();
    let state = this.state;
    const events: CommandRunEvent[] = [];
    for (const step of steps) {
      const command = { ...step, run_id: this.runId, now } as CommandRunCommand;
      const decision = decide(command, state);
      if (decision.kind === 'refused') throw new Error(`command run ${this.runId}: ${decision.refusal.detail}`);
      for (const event of decision.events) state = evolve(state, event);
      events.push(...decision.events);
    }
    this.version = await appendCommandRunEvents(this.ctx.db, this.runId, this.version, events, now, this.metadata);
    this.state = state;
  }
}
