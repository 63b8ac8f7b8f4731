import { Socket } from 'node:net';
import pg from 'pg';

export interface HostPort {
  host: string;
  port: number;
}

/** A connection URI naming several servers: the URI for each (what pg parses), in the order given. */
export interface HostList {
  /** The URI with the first server (pg's own connection settings come from it). */
  base: string;
  hosts: HostPort[];
  /** The URI with `host` in place of the list. */
  uriOf(host: HostPort): string;
}

/**
 * Reads libpq's multi-host URI (`postgres://user@h1:5432,h2:5433/db`). Null for a URI with one server,
 * which is left to pg as it is.
 */
export function parseHosts(connectionString: string): HostList | null {
  const match = /^(postgres(?:ql)?:\/\/(?:[^@/]*@)?)([^/?#]*)(.*)$/i.exec(connectionString);
  if (!match?.[2]?.includes(',')) return null;
  const [prefix, list, rest] = [match[1]!, match[2]!, match[3]!];
  const hosts = list.split(',').map((part): HostPort => {
    const bracketed = /^\[([^\]]+)\](?::(\d+))?$/.exec(part);
    const [host, port] = bracketed ? [bracketed[1]!, bracketed[2]] : [part.replace(/:\d+$/, ''), /:(\d+)$/.exec(part)?.[1]];
    if (!host) throw new Error(`DATABASE_URL names an empty host in "${list}"`);
    return { host, port: port ? Number(port) : 5432 };
  });
  const uriOf = (h: HostPort) => `${prefix}${h.host.includes(':') ? `[${h.host}]` : h.host}:${h.port}${rest}`;
  return { base: uriOf(hosts[0]!), hosts, uriOf };
}

/** How often the primary is looked for again while none answers (a failover under way). */
const PROBE_RETRY_MS = 250;

/**
 * The writable server among several (libpq's target_session_attrs=read-write): the first that accepts a
 * connection and is not in recovery. Every new connection goes to the one found last; a connection that
 * fails to it, or an ended session, sends the next connections to look again. So after a standby is
 * promoted, the pool and the listener reconnect to it without a restart.
 */
export class PrimaryFinder {
  private current: HostPort | null = null;
  private looking: Promise<HostPort | null> | null = null;

  constructor(
    private readonly list: HostList,
    private readonly probeConfig: Omit<pg.ClientConfig, 'connectionString' | 'host' | 'port'> = {},
  ) {}

  /** The primary to connect to now, looking for it if none is known (null: none answers as writable). */
  async primary(): Promise<HostPort | null> {
    if (this.current) return this.current;
    this.looking ??= this.look().finally(() => (this.looking = null));
    return this.looking;
  }

  /** A connection to `host` failed or ended: look again before the next one. */
  suspect(host: HostPort): void {
    if (this.current && this.current.host === host.host && this.current.port === host.port) this.current = null;
  }

  /** The pg client option that connects every new client's socket to the primary found. */
  stream(): () => Socket {
    return () => new PrimarySocket(this);
  }

  private async look(): Promise<HostPort | null> {
    for (const candidate of this.list.hosts) {
      if (await this.writable(candidate)) return (this.current = candidate);
    }
    return null;
  }

  private async writable(candidate: HostPort): Promise<boolean> {
    const probe = new pg.Client({ ...this.probeConfig, connectionString: this.list.uriOf(candidate), application_name: 'palimpsest-probe' });
    probe.on('error', () => undefined);
    try {
      await probe.connect();
      const { rows } = await probe.query<{ recovering: boolean }>('SELECT pg_is_in_recovery() AS recovering');
      return rows[0]?.recovering === false;
    } catch {
      return false;
    } finally {
      await probe.end().catch(() => undefined);
    }
  }

  /** Waits for a primary, looking again every PROBE_RETRY_MS, until `deadline` (ms since the epoch). */
  async awaitPrimary(deadline: number): Promise<HostPort | null> {
    for (;;) {
      const found = await this.primary();
      if (found || Date.now() >= deadline) return found;
      await new Promise((resolve) => setTimeout(resolve, PROBE_RETRY_MS));
    }
  }
}

/**
 * The socket pg connects: the host and port pg passes (the URI's first) are replaced by the primary's,
 * found before the connect goes out. An error or a close before the session ends sends the finder looking.
 */
class PrimarySocket extends Socket {
  constructor(private readonly finder: PrimaryFinder) {
    super();
  }

  override connect(...args: unknown[]): this {
    // pg calls connect(port, host) for TCP; a unix socket path (one argument) is not a failover list.
    if (args.length !== 2 || typeof args[0] !== 'number') return super.connect(...(args as Parameters<Socket['connect']>));
    const deadline = Date.now() + CONNECT_WAIT_MS;
    void this.finder.awaitPrimary(deadline).then((found) => {
      if (this.destroyed) return;
      if (!found) {
        this.destroy(new Error('no PostgreSQL server of DATABASE_URL accepts writes (every one is down or in recovery)'));
        return;
      }
      this.once('error', () => this.finder.suspect(found));
      this.once('close', (hadError: boolean) => hadError && this.finder.suspect(found));
      super.connect(found.port, found.host);
    });
    return this;
  }
}

/** How long one connection waits for a primary to appear (a promotion under way) before it fails. */
const CONNECT_WAIT_MS = 2_000;
