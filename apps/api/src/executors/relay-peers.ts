import { randomUUID } from 'node:crypto';
import type { Logger } from 'pino';
import type { RelayCall } from '@palimpsest/application/relay/project-relay.port';
import type { Outcome } from '@palimpsest/protocol/outcome';
import type { Db } from '@palimpsest/store/db';
import {
  answerHanded, dropHanded, handedAnswer, handedCall, handOver, notifyRelay, pendingHanded, projectsElsewhere, syncProjects, type HeldProject, type ProjectPresence,
} from '@palimpsest/store/relay-routes';

const CHANNEL = 'palimpsest_relay';
/** A gateway renews its presence this often; a row lapses after PRESENCE_TTL_MS without renewal (a gateway killed). */
const RENEW_MS = 5_000;
const PRESENCE_TTL_MS = 20_000;
/** A waiting caller looks at its handed-over call this often, should a NOTIFY be lost. */
const POLL_MS = 500;

/** A call as handed over: a RelayCall without its abort signal, with its key fixed by the caller's gateway. */
type HandedCall = Omit<RelayCall, 'signal'> & { key: string };

/**
 * The gateways on one PostgreSQL database as one relay: each announces the projects its executors hold
 * (relay_presence) and learns the others' (NOTIFY palimpsest_relay 'presence', and every RENEW_MS); a
 * call for a project whose executor is connected to another gateway is handed to it through
 * relay_forwarded_calls and answered there, on that gateway's record like every call of its own (the same
 * key, the same exactly-once rules). On an embedded store there is one gateway and nothing to share.
 */
export class RelayPeers {
  readonly gateway = randomUUID();
  private elsewhere: ProjectPresence[] = [];
  private readonly waiting = new Map<string, () => void>();
  /** Handed-over calls being answered here now (a late NOTIFY and the periodic look must not both take one). */
  private readonly serving = new Set<string>();
  private unlisten: (() => Promise<void>) | null = null;
  private timer: NodeJS.Timeout | null = null;
  /** Presence writes one after another, so that a later one always wins. */
  private writes: Promise<void> = Promise.resolve();

  constructor(
    private readonly db: Db,
    private readonly logger: Logger,
    /** The projects held online here now. */
    private readonly held: () => HeldProject[],
    private readonly serve: (call: RelayCall) => Promise<Outcome>,
  ) {}

  get shared(): boolean {
    return this.db.kind === 'postgres';
  }

  async start(): Promise<void> {
    if (!this.shared) return;
    this.unlisten = await this.db.listen(CHANNEL, (payload) => this.notified(payload), () => void this.refresh());
    this.timer = setInterval(() => void this.tick(), RENEW_MS);
    this.timer.unref();
    await this.refresh();
  }

  async close(): Promise<void> {
    if (this.timer) clearInterval(this.timer);
    if (!this.shared) return;
    await this.write(() => [], true);
    await this.unlisten?.();
  }

  /** Projects online on other gateways (not this one's), as last read. */
  projects(): ProjectPresence[] {
    return this.elsewhere;
  }

  /** The projects held here changed (an executor said hello, went away, or its token was revoked). */
  changed(): void {
    if (this.shared) void this.write(this.held, true);
  }

  /** Hands `call` to `gateway` and waits for its answer until `deadline`; null past it (the outcome unknown here). */
  async forward(call: HandedCall, gateway: string, deadline: number): Promise<Outcome | null> {
    const id = randomUUID();
    let wake: () => void = () => undefined;
    this.waiting.set(id, () => wake());
    try {
      await handOver(this.db, id, gateway, call);
      await notifyRelay(this.db, `call:${gateway}:${id}`);
      for (;;) {
        const answer = await handedAnswer(this.db, id);
        if (answer !== null) return answer as Outcome;
        const left = deadline - Date.now();
        if (left <= 0) return null;
        await new Promise<void>((resolve) => {
          const timer = setTimeout(resolve, Math.min(left, POLL_MS));
          wake = () => (clearTimeout(timer), resolve());
        });
      }
    } finally {
      this.waiting.delete(id);
      await this.quietly('drop a handed-over call', () => dropHanded(this.db, id));
    }
  }

  private notified(payload: string): void {
    if (payload === 'presence') return void this.refresh();
    // call:<gateway>:<id> (a call handed to a gateway), answer:<id> (its answer written back)
    const [kind, first, second] = payload.split(':');
    if (kind === 'call' && first === this.gateway && second) return void this.answer(second);
    if (kind === 'answer' && first) this.waiting.get(first)?.();
  }

  /** A call another gateway handed to this one: answered like every call of this gateway's own. */
  private async answer(id: string): Promise<void> {
    if (this.serving.has(id)) return;
    this.serving.add(id);
    await this.quietly('answer a handed-over call', async () => {
      const call = (await handedCall(this.db, id, this.gateway)) as HandedCall | null;
      if (!call) return;
      const answer = await this.serve(call);
      await answerHanded(this.db, id, answer);
      await notifyRelay(this.db, `answer:${id}`);
    });
    this.serving.delete(id);
  }

  private async tick(): Promise<void> {
    await this.write(this.held, false);
    await this.refresh();
    await this.quietly('look for handed-over calls', async () => {
      for (const id of await pendingHanded(this.db, this.gateway)) void this.answer(id);
    });
  }

  private write(held: () => HeldProject[], announce: boolean): Promise<void> {
    this.writes = this.writes.then(() =>
      this.quietly('write presence', async () => {
        await syncProjects(this.db, this.gateway, held(), PRESENCE_TTL_MS);
        if (announce) await notifyRelay(this.db, 'presence');
      }),
    );
    return this.writes;
  }

  private async refresh(): Promise<void> {
    await this.quietly('read presence', async () => {
      this.elsewhere = await projectsElsewhere(this.db, this.gateway);
    });
  }

  private async quietly(what: string, fn: () => Promise<void>): Promise<void> {
    try {
      await fn();
    } catch (error) {
      this.logger.warn({ err: error, gateway: this.gateway }, `executor relay peers: could not ${what}`);
    }
  }
}
