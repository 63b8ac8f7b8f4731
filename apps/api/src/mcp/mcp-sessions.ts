/** One session's resources: what the registry closes when the session expires or the gateway stops. */
export interface Closable {
  close(): Promise<void>;
}

export interface SessionEntry<T extends Closable> {
  readonly id: string;
  /** The token that initialized it: only that token may use it. */
  readonly owner: string;
  readonly value: T;
  lastUsed: number;
  /** Requests being answered and streams open on it: a session with any is never idle. */
  active: number;
}

export type SessionLookup<T extends Closable> = { kind: 'found'; entry: SessionEntry<T> } | { kind: 'unknown' } | { kind: 'foreign' };

export interface SessionLimits {
  maxSessions: number;
  idleMs: number;
}

/**
 * The MCP sessions open on this gateway (Mcp-Session-Id → session), each bound to the token that
 * opened it, at most `maxSessions` at once. A session with no request in flight and no stream open for
 * `idleMs` is closed by `sweep()`, which the owner calls periodically and before refusing one for the cap.
 */
export class SessionRegistry<T extends Closable> {
  private readonly sessions = new Map<string, SessionEntry<T>>();

  constructor(
    private readonly limits: SessionLimits,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.sessions.size;
  }

  /** False when `maxSessions` are open, even after closing the idle ones. */
  async hasRoom(): Promise<boolean> {
    if (this.sessions.size < this.limits.maxSessions) return true;
    await this.sweep();
    return this.sessions.size < this.limits.maxSessions;
  }

  /** Adds a session, or answers null at the cap (checked here, in the same turn as the add, so concurrent initializes cannot pass it). */
  add(id: string, owner: string, value: T): SessionEntry<T> | null {
    if (this.sessions.size >= this.limits.maxSessions) return null;
    const entry: SessionEntry<T> = { id, owner, value, lastUsed: this.now(), active: 0 };
    this.sessions.set(id, entry);
    return entry;
  }

  lookup(id: string, owner: string): SessionLookup<T> {
    const entry = this.sessions.get(id);
    if (!entry) return { kind: 'unknown' };
    return entry.owner === owner ? { kind: 'found', entry } : { kind: 'foreign' };
  }

  /** Marks the session used until the returned function is called (when the response closes). */
  use(entry: SessionEntry<T>): () => void {
    entry.active++;
    entry.lastUsed = this.now();
    let done = false;
    return () => {
      if (done) return;
      done = true;
      entry.active--;
      entry.lastUsed = this.now();
    };
  }

  all(): SessionEntry<T>[] {
    return [...this.sessions.values()];
  }

  /** Forgets a session without closing it (it closed itself: DELETE, or its transport ended). */
  remove(id: string): void {
    this.sessions.delete(id);
  }

  /** Closes the sessions idle for `idleMs`; answers how many. */
  async sweep(): Promise<number> {
    const cutoff = this.now() - this.limits.idleMs;
    const idle = [...this.sessions.values()].filter((e) => e.active === 0 && e.lastUsed <= cutoff);
    await Promise.all(idle.map((e) => this.close(e)));
    return idle.length;
  }

  async closeAll(): Promise<void> {
    await Promise.all([...this.sessions.values()].map((e) => this.close(e)));
  }

  private async close(entry: SessionEntry<T>): Promise<void> {
    this.sessions.delete(entry.id);
    await entry.value.close();
  }
}
