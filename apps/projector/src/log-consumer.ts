import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import type { Db } from '@palimpsest/store/db';
import { EVENTS_CHANNEL } from '@palimpsest/store/events-channel';
import { consumerOptions, type ConsumerOptions } from './consumer-options';
import type { LogProcessor } from './log-processor';
import { PageReader } from './page-reader';
import { ProcessorSlot, type RunningProcessor } from './processor-slot';
import { Wakeup } from './wakeup';

/**
 * The one follower of the event log (Emmett's consumer with its processors): it owns the leader leases,
 * the checkpoints and the wake-up. Each step it tries the leases it does not hold (at most every
 * leaseRetryMs), reads one page per distinct checkpoint of the processors it leads (readAll, commit-safe
 * order: in step, they share it) and hands it to each of them; a processor whose batch fails gives up
 * its lease and retries from its own checkpoint after a pause, while the others go on. It steps again at once while a page was full,
 * else on a wake-up (LISTEN, or a lost listener connection back; then after gatherMs, so close appends
 * are read together) or after pollMs.
 */
const gather = (ms: number) => (ms > 0 ? new Promise<void>((resolve) => setTimeout(resolve, ms)) : Promise.resolve());

export class LogConsumer {
  private readonly opts: ConsumerOptions;
  private readonly slots: readonly ProcessorSlot[];
  private readonly pages: PageReader;
  private readonly wakeup = new Wakeup();
  private loop: Promise<void> | null = null;
  private unlisten: (() => Promise<void>) | null = null;
  private stopping = false;

  constructor(
    private readonly db: Db,
    processors: readonly LogProcessor[],
    opts: Partial<ConsumerOptions> = {},
  ) {
    const names = processors.map((p) => p.name);
    if (new Set(names).size !== names.length) throw new RangeError(`two processors share a name: ${names.join(', ')}`);
    this.opts = consumerOptions(opts);
    this.slots = processors.map((p) => new ProcessorSlot(db, p, this.opts));
    this.pages = new PageReader(db, processors.some((p) => p.readsChainLinks === true));
  }

  get processors(): readonly RunningProcessor[] {
    return this.slots;
  }

  /** Opens the processors, listens, and begins following the log (returns once started, not once caught up). */
  async start(): Promise<void> {
    if (this.loop) return;
    const opened: LogProcessor[] = [];
    try {
      for (const { processor } of this.slots) {
        await processor.open?.();
        opened.push(processor);
      }
      const wake = () => this.wakeup.fire();
      this.unlisten = await this.db.listen(EVENTS_CHANNEL, wake, (gap) => gap === 'resumed' && wake());
    } catch (error) {
      for (const processor of opened) await processor.close?.().catch(() => undefined);
      throw error;
    }
    this.stopping = false;
    this.loop = this.run();
  }

  /** Finishes the batches in progress (their checkpoints included), gives up the leases, closes the processors. */
  async stop(): Promise<void> {
    if (!this.loop) return;
    this.stopping = true;
    this.wakeup.fire();
    await this.loop;
    this.loop = null;
    const unlisten = this.unlisten;
    this.unlisten = null;
    await unlisten?.();
    for (const { processor } of this.slots) await processor.close?.();
  }

  statuses(): Promise<ConsumerStatus[]> {
    return Promise.all(this.slots.map((s) => s.status()));
  }

  private async run(): Promise<void> {
    while (!this.stopping) {
      const backlog = await this.step().catch((error: unknown) => {
        this.opts.onError(error, 'log consumer'); // a slot reports its own failures: this is a bug, not a batch
        return false;
      });
      if (!backlog && (await this.wakeup.sleep(this.idleMs())) && !this.stopping) await gather(this.opts.gatherMs);
    }
    await this.pages.settle();
    await Promise.all(this.slots.map((s) => s.giveUp()));
  }

  /** One batch for every processor ready; true when a page was full (a backlog: step again at once). */
  private async step(): Promise<boolean> {
    const now = performance.now();
    const ready = await Promise.all(this.slots.map((s) => s.ready(now)));
    const groups = new Map<string, ProcessorSlot[]>();
    this.slots.forEach((slot, i) => {
      if (!ready[i]) return;
      const key = this.pages.key(slot.checkpoint!, slot.batchSize);
      groups.set(key, [...(groups.get(key) ?? []), slot]);
    });
    const full = await Promise.all([...groups.values()].map((group) => this.serve(group)));
    this.pages.endStep();
    return full.some(Boolean);
  }

  /** Reads once for processors at one checkpoint and hands the page to each. */
  private async serve(group: readonly ProcessorSlot[]): Promise<boolean> {
    const { checkpoint, batchSize } = group[0]!;
    let page;
    try {
      page = await this.pages.read(checkpoint!, batchSize);
    } catch (error) {
      await Promise.all(group.map((slot) => slot.fail(error)));
      return false;
    }
    await Promise.all(group.map((slot) => slot.handle(page)));
    return page.length === batchSize && group.some((slot) => slot.checkpoint !== null);
  }

  /** Until the next poll of a processor led, or the next retry of one paused or standing by. */
  private idleMs(): number {
    const now = performance.now();
    let wait = this.opts.pollMs;
    for (const slot of this.slots) if (!(slot.leading && slot.retryAt <= now)) wait = Math.min(wait, Math.max(0, slot.retryAt - now));
    return wait;
  }
}
