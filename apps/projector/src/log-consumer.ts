import type { ConsumerStatus } from '@palimpsest/projections/async/async-projection.port';
import type { Db } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import { EVENTS_CHANNEL } from '@palimpsest/store/events-channel';
import { consumerOptions, type ConsumerOptions } from './consumer-options';
import type { LogProcessor } from './log-processor';
import { PageReader } from './page-reader';
import { shardLeases, type ShardLeases } from './leader-lease';
import { ProcessorSlot, type RunningProcessor } from './processor-slot';
import { Wakeup } from './wakeup';

/**
 * The one follower of the event log (Emmett's consumer with its processors): it owns the shard leases
 * (a shard is a processor), the checkpoints and the wake-up. At most every leaseRetryMs it balances its
 * leases: it takes free shards up to its fair share among the consumers that are up and gives up those
 * over it (leader-lease.ts). Each step it reads one page per distinct checkpoint of the processors it leads (readAll, commit-safe
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
  private readonly leases: ShardLeases;
  /** performance.now() of the next balance of the leases. */
  private balanceAt = 0;

  constructor(
    private readonly db: Db,
    processors: readonly LogProcessor[],
    opts: Partial<ConsumerOptions> = {},
  ) {
    const names = processors.map((p) => p.name);
    if (new Set(names).size !== names.length) throw new RangeError(`two processors share a name: ${names.join(', ')}`);
    this.opts = consumerOptions(opts);
    this.leases = shardLeases(db, names, this.opts);
    this.slots = processors.map((p) => new ProcessorSlot(db, p, this.opts, this.leases));
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
      await this.leases.start();
    } catch (error) {
      await this.unlisten?.().catch(() => undefined);
      this.unlisten = null;
      for (const processor of opened) await processor.close?.().catch(() => undefined);
      throw error;
    }
    this.stopping = false;
    this.balanceAt = 0;
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
    await this.leases.stop();
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
    if (now >= this.balanceAt || this.slots.some((slot) => slot.retryDue)) await this.balance(now);
    const ready = await Promise.all(this.slots.map((s) => s.ready(now)));
    const groups = new Map<string, ProcessorSlot[]>();
    this.slots.forEach((slot, i) => {
      if (!ready[i]) return;
      const key = this.pages.key(slot.checkpoint!);
      groups.set(key, [...(groups.get(key) ?? []), slot]);
    });
    const full = await Promise.all([...groups.values()].map((group) => this.serve(group)));
    this.pages.endStep();
    return full.some(Boolean);
  }

  /**
   * Reads once for processors at one checkpoint, as many events as the widest page among them asks, and
   * hands each its page: the first pageSize events (a projection catching up reads more than the relay).
   * When full, the page after it is read ahead at the sizes its widest readers ask next.
   */
  private async serve(group: readonly ProcessorSlot[]): Promise<boolean> {
    const checkpoint = group[0]!.checkpoint!;
    const limit = Math.max(...group.map((slot) => slot.pageSize));
    let page: StoredEvent[];
    try {
      page = await this.pages.read(checkpoint, limit, group.filter((slot) => slot.pageSize === limit).map((slot) => slot.pageAfter(limit, limit)));
    } catch (error) {
      await Promise.all(group.map((slot) => slot.fail(error)));
      return false;
    }
    const sizes = group.map((slot) => slot.pageSize);
    await Promise.all(group.map((slot, i) => slot.handle(page.length > sizes[i]! ? page.slice(0, sizes[i]) : page, sizes[i])));
    return group.some((slot, i) => slot.checkpoint !== null && page.length >= sizes[i]!);
  }

  /**
   * Leads up to its fair share of the shards (leases.share: shards / consumers up, when all run the same
   * processors): gives up those over it (the last ones, between batches, so a newcomer takes them at
   * once), then takes free ones among the slots not pausing. Never throws (a failure is retried at the
   * next balance).
   */
  private async balance(now: number): Promise<void> {
    this.balanceAt = now + this.opts.leaseRetryMs;
    try {
      const share = await this.leases.share();
      const leading = this.slots.filter((slot) => slot.leading);
      for (const slot of leading.slice(share)) await slot.giveUp();
      const wanting = this.slots.filter((slot) => slot.wantsLease(now));
      const room = share - Math.min(share, leading.length);
      if (room === 0 || wanting.length === 0) return;
      const taken = await this.leases.acquire(wanting.map((slot) => slot.name), room);
      const byName = new Map(this.slots.map((slot) => [slot.name, slot]));
      await Promise.all(taken.map((lease) => byName.get(lease.shard)!.lead(lease)));
    } catch (error) {
      this.opts.onError(error, 'shard leases');
    }
  }

  /** Until the next poll, the next balance while a shard is not led here, or the next retry of one paused. */
  private idleMs(): number {
    const now = performance.now();
    let wait = this.opts.pollMs;
    for (const slot of this.slots) {
      if (!slot.leading) wait = Math.min(wait, Math.max(0, (slot.retryAt > now ? slot.retryAt : this.balanceAt) - now));
    }
    return wait;
  }
}
