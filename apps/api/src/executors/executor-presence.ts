import type { ExecutorProject } from '@palimpsest/protocol/executor/executor-messages';

/** One executor that said hello and is connected now. */
export interface ExecutorEntry {
  connectionId: string;
  deviceId: string;
  /** The token it connected with (null with --no-auth). */
  tokenId: string | null;
  cliVersion: string;
  platform: string;
  protocolVersion: number;
  projects: ExecutorProject[];
  connectedAt: number;
  /** The last heartbeat (or presence) message, null before the first. */
  lastHeartbeatAt: number | null;
}

/** What /health shows of one executor (snake_case like the gateway's other answers). */
export interface ExecutorReport {
  device_id: string;
  platform: string;
  cli_version: string;
  protocol_version: number;
  projects: ExecutorProject[];
  connected_at: string;
  last_heartbeat_at: string | null;
}

/**
 * The gateway's one registry of connected executors: the link adds an executor at its hello, marks its
 * heartbeats and removes it when the connection ends, whatever ended it; /health and /metrics read it.
 */
export class ExecutorPresence {
  private readonly entries = new Map<string, ExecutorEntry>();

  add(entry: ExecutorEntry): void {
    this.entries.set(entry.connectionId, entry);
  }

  remove(connectionId: string): void {
    this.entries.delete(connectionId);
  }

  heartbeat(connectionId: string, at: number): void {
    const entry = this.entries.get(connectionId);
    if (entry) entry.lastHeartbeatAt = at;
  }

  byDevice(deviceId: string): ExecutorEntry | undefined {
    for (const entry of this.entries.values()) if (entry.deviceId === deviceId) return entry;
    return undefined;
  }

  get size(): number {
    return this.entries.size;
  }

  get projectCount(): number {
    let n = 0;
    for (const entry of this.entries.values()) n += entry.projects.length;
    return n;
  }

  /** Oldest connection first. */
  report(): { connected: number; executors: ExecutorReport[] } {
    const executors = [...this.entries.values()]
      .sort((a, b) => a.connectedAt - b.connectedAt)
      .map((e) => ({
        device_id: e.deviceId,
        platform: e.platform,
        cli_version: e.cliVersion,
        protocol_version: e.protocolVersion,
        projects: e.projects.map(({ id, slug }) => ({ id, slug })),
        connected_at: new Date(e.connectedAt).toISOString(),
        last_heartbeat_at: e.lastHeartbeatAt === null ? null : new Date(e.lastHeartbeatAt).toISOString(),
      }));
    return { connected: executors.length, executors };
  }
}
