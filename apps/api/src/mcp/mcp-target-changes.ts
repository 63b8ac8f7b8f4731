import type { Server } from '@modelcontextprotocol/sdk/server/index.js';
import { SetLevelRequestSchema, type LoggingLevel } from '@modelcontextprotocol/sdk/types.js';
import { isUuid } from '@palimpsest/core/target/request-identity';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { AppendNotification } from '@palimpsest/store/events-channel';
import type { EventHub } from '../events/event-hub';

/** Targets one session follows: the most recent ones its tool calls answered about. */
export const MAX_WATCHED_TARGETS = 64;

const SEVERITY: LoggingLevel[] = ['debug', 'info', 'notice', 'warning', 'error', 'critical', 'alert', 'emergency'];

/**
 * Server-to-client notifications of one session (its GET stream, replayable with Last-Event-ID):
 * once a tool call has answered about a target (its result names target_file_id), every later append
 * to that target's stream — by this session, another client or another process — is announced as
 * notifications/message (logging, level info, logger "palimpsest.targets") with the stream version
 * and global position. It is a hint, as the store's notifications are: read the target before relying
 * on it. Notifications arrive after the answer, so the append of the very call that made the session
 * follow a target may be announced too. The client may raise the level (logging/setLevel) to silence them.
 */
export class SessionNotifier {
  private readonly watched = new Map<string, Promise<() => void>>();
  private level: LoggingLevel = 'debug';
  private stopped = false;

  constructor(
    private readonly server: Server,
    private readonly hub: EventHub,
    private readonly onError: (error: unknown) => void,
  ) {
    server.registerCapabilities({ logging: {} });
    server.setRequestHandler(SetLevelRequestSchema, async (request) => {
      this.level = request.params.level;
      return {};
    });
  }

  /** A tools/call answered: follow the target it names. */
  answered(result: Record<string, unknown> | null): void {
    const id = result?.target_file_id;
    if (this.stopped || typeof id !== 'string' || !isUuid(id)) return;
    const targetId = id.toLowerCase();
    if (this.watched.has(targetId)) return;
    if (this.watched.size >= MAX_WATCHED_TARGETS) this.unwatch(this.watched.keys().next().value!);
    const unwatch = this.hub.subscribe(targetStreamId(targetId), (append) => append && this.announce(targetId, append));
    unwatch.catch(this.onError);
    this.watched.set(targetId, unwatch);
  }

  stop(): void {
    this.stopped = true;
    for (const targetId of [...this.watched.keys()]) this.unwatch(targetId);
  }

  private unwatch(targetId: string): void {
    const unwatch = this.watched.get(targetId);
    this.watched.delete(targetId);
    unwatch?.then((stop) => stop(), () => undefined);
  }

  private announce(targetId: string, append: AppendNotification): void {
    if (this.stopped || SEVERITY.indexOf('info') < SEVERITY.indexOf(this.level)) return;
    const data = { event: 'target_appended', target_file_id: targetId, stream_version: append.stream_version, global_position: append.global_position };
    this.server.sendLoggingMessage({ level: 'info', logger: 'palimpsest.targets', data }).catch(this.onError);
  }
}
