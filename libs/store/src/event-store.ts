import type { AppendBatcher } from './append-batcher';
import { appendTogether } from './append-guarded-batch';
import type { AppendGuard, AppendSpec } from './append-spec';
import { appendToStream, isStreamVersionViolation, type AppendResult } from './append-to-stream';
import type { Db, Sql, Tx } from './db';
import { StreamVersionConflictError } from './errors';
import type { AppendNotification } from './events-channel';
import { ridingEvent, type EventToAppend, type InlineProjections } from './inline-projection';
import { raw } from './sql-fragment';
import type { WakeNotifier } from './wake-notifier';

/**
 * The one append of every aggregate. An append runs the inline projections registered for its events'
 * types in the statement that inserts them (one event, one statement, its projections riding as CTEs),
 * and wakes listeners once, after its transaction has committed, riders included: no NOTIFY is ever sent
 * inside a commit (see WakeNotifier). A guarded append outside any transaction is one statement with no
 * BEGIN/COMMIT, sent through the group commit (AppendBatcher).
 */

/** Another stream's append that commits with the first (a publication's outcome with its target's change). */
export interface StreamAppend {
  streamId: string;
  expectedVersion: number;
  events: EventToAppend[];
}

export interface AppendOptions {
  /** See AppendGuard: refused, nothing is written and the append throws StreamVersionConflictError. */
  guard?: AppendGuard;
  riders?: StreamAppend[];
  /**
   * Another commit of this process soon follows this one (a publication's start, then its outcome): its
   * wake-up leaves with that commit's, one NOTIFY statement for both (see WakeNotifier.wakeWithNext).
   */
  wakeWithNext?: boolean;
}

export interface Appended extends AppendResult {
  /** What each rider's append wrote, in the order given. */
  riders: AppendResult[];
}

export interface EventAppender {
  /**
   * Throws StreamVersionConflictError, with nothing written, when a stream is not at its expected version
   * or the guard refused.
   */
  append(streamId: string, expectedVersion: number, events: EventToAppend[], options?: AppendOptions): Promise<Appended>;
}

/** A transaction of the store: its appends wake their listeners once it has committed. */
export interface StoreTx extends Tx, EventAppender {}

export interface EventStoreParts {
  /** The group commit of guarded appends sent outside a transaction. */
  appends: AppendBatcher;
  /** Wake-ups after commit. */
  wakes: WakeNotifier;
}

export class EventStore implements EventAppender {
  constructor(
    private readonly db: Db,
    private readonly projections: InlineProjections,
    private readonly parts: EventStoreParts,
  ) {}

  /**
   * Outside any transaction: a guarded append that fits one statement goes through the group commit;
   * anything else commits in a transaction of its own.
   */
  async append(streamId: string, expectedVersion: number, events: EventToAppend[], options: AppendOptions = {}): Promise<Appended> {
    const main = { streamId, expectedVersion, events };
    const alone = options.guard && !options.riders?.length ? this.oneStatement(main) : null;
    if (!alone) return this.transaction((tx) => tx.append(streamId, expectedVersion, events, options));
    const result = await this.parts.appends.append({ ...alone, guard: options.guard! });
    if (!result) throw new StreamVersionConflictError(streamId, expectedVersion);
    this.wake(notes([main], [result]), options);
    return { ...result, riders: [] };
  }

  /** BEGIN … COMMIT (see Db.transaction); once committed, one wake-up for every append it made. */
  async transaction<T>(fn: (tx: StoreTx) => Promise<T>): Promise<T> {
    const woken: AppendNotification[] = [];
    const deferred: AppendNotification[] = [];
    const result = await this.db.transaction((tx) =>
      fn({
        query: (text, params) => tx.query(text, params),
        exec: (script) => tx.exec(script),
        append: async (streamId, expectedVersion, events, options = {}) => {
          const appends = [{ streamId, expectedVersion, events }, ...(options.riders ?? [])];
          const results = await this.appendIn(tx, appends, options.guard);
          (options.wakeWithNext ? deferred : woken).push(...notes(appends, results));
          return { ...results[0]!, riders: results.slice(1) };
        },
      }),
    );
    this.parts.wakes.wakeWithNext(deferred);
    this.parts.wakes.wakeAll(woken);
    return result;
  }

  private wake(woken: AppendNotification[], options: AppendOptions): void {
    if (options.wakeWithNext) this.parts.wakes.wakeWithNext(woken);
    else this.parts.wakes.wakeAll(woken);
  }

  /** Every append in one statement when each fits one, else one statement per event in order. */
  private async appendIn(tx: Sql, appends: StreamAppend[], guard: AppendGuard | undefined): Promise<AppendResult[]> {
    const specs = appends.map((a) => this.oneStatement(a));
    try {
      if (specs.every((s): s is AppendSpec => s !== null)) {
        if (specs.length > 1) return await appendTogether(tx, [{ ...specs[0]!, guard }, ...specs.slice(1)]);
        const [only] = specs as [AppendSpec];
        return [await appendToStream(tx, only.streamId, only.expectedVersion, only.events, { alongside: only.alongside, guard, notifyChannel: null })];
      }
      const results: AppendResult[] = [];
      for (const [i, a] of appends.entries()) results.push(await this.eventByEvent(tx, a, i === 0 ? guard : undefined));
      return results;
    } catch (error) {
      if (error instanceof StreamVersionConflictError || !isStreamVersionViolation(error)) throw error;
      throw new StreamVersionConflictError(appends[0]!.streamId, appends[0]!.expectedVersion, { cause: error });
    }
  }

  /** One statement per event, each after the writes its projections must run first. */
  private async eventByEvent(tx: Sql, a: StreamAppend, guard: AppendGuard | undefined): Promise<AppendResult> {
    const positions: number[] = [];
    for (const [i, event] of a.events.entries()) {
      const version = a.expectedVersion + i;
      for (const before of this.projections.beforeFor(ridingEvent(a.streamId, version + 1, event, AHEAD))) {
        const { text, values } = before.render();
        await tx.query(text, values);
      }
      const alongside = this.ridingWrites(a.streamId, version + 1, event);
      positions.push(...(await appendToStream(tx, a.streamId, version, [event], { alongside, guard: i === 0 ? guard : undefined, notifyChannel: null })).positions);
    }
    return { positions, nextExpectedVersion: a.expectedVersion + a.events.length };
  }

  /**
   * The append as one statement: one event whose projections need nothing run before it, or events no
   * projection handles. Null when it takes more (each projected event reads its own inserted row).
   */
  private oneStatement(a: StreamAppend): AppendSpec | null {
    if (a.events.length === 0) throw new RangeError('an append needs at least one event');
    if (a.events.length > 1) return a.events.some((e) => this.projections.handles(e.type)) ? null : a;
    const event = a.events[0]!;
    if (this.projections.beforeFor(ridingEvent(a.streamId, a.expectedVersion + 1, event, AHEAD)).length > 0) return null;
    return { ...a, alongside: this.ridingWrites(a.streamId, a.expectedVersion + 1, event) };
  }

  private ridingWrites(streamId: string, streamVersion: number, event: EventToAppend): AppendSpec['alongside'] {
    if (!this.projections.handles(event.type)) return undefined;
    return (at) => this.projections.ridingFor(ridingEvent(streamId, streamVersion, event, at.inserted));
  }
}

/** What a write run ahead of its event's append is placed at: no row is inserted yet, so it reads none. */
const AHEAD = raw('(SELECT NULL::bigint AS global_position WHERE false)');

/** One wake-up per stream appended to: its last position and version. */
function notes(appends: StreamAppend[], results: AppendResult[]): AppendNotification[] {
  return appends.map((a, i) => ({
    stream_id: a.streamId,
    global_position: results[i]!.positions.at(-1)!,
    stream_version: results[i]!.nextExpectedVersion,
  }));
}
