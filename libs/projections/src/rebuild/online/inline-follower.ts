import { evolve as evolveCandidate } from '@palimpsest/core/candidate/candidate.decider';
import { CANDIDATE_STREAM_PREFIX, upcastCandidateEvent } from '@palimpsest/core/candidate/candidate.events';
import { initialCandidateState, type CandidateState } from '@palimpsest/core/candidate/candidate.state';
import { evolve as evolvePublication } from '@palimpsest/core/publication/publication.decider';
import { PUBLICATION_STREAM_PREFIX, upcastPublicationEvent } from '@palimpsest/core/publication/publication.events';
import { initialPublicationState, type PublicationState } from '@palimpsest/core/publication/publication.state';
import { TargetFold } from '@palimpsest/core/target/target-fold';
import { targetStreamId, upcastTargetEvent } from '@palimpsest/core/target/target.events';
import { textOf } from '@palimpsest/core/target/target.state';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { AsyncProjection } from '../../async/async-projection.port';
import { knownEvent } from '@palimpsest/store/inline-projection';
import { candidateProjection } from '../../candidates/candidate.projection';
import { ContentCache } from '../../content/content-cache';
import { readTargetRow } from '../../content/target-row.queries';
import { projectKnown, targetProjection } from '../../inline-projections';
import { publicationProjection } from '../../publications/publication.projection';
import { READ_MODEL_TABLES } from '../rebuild-projections';

/**
 * The inline read models driven like an asynchronous projection: events in readAll order, each brought
 * into the tables on the search_path by the very statements a submit runs (the projections
 * registered with the store, through projectKnown), from the state the tables themselves hold, as a live write does.
 * A target's text is folded by TargetFold, the fold replay and the stop-the-world rebuild run.
 *
 * readAll orders by (transaction id, position), which is not always a stream's version order (a
 * transaction that took its xid before waiting for a row lock commits a later version with a smaller
 * xid). So an event is applied only on top of the stream's previous version: a gap is filled from the
 * stream first, and an event already applied that way is skipped when readAll reaches it.
 * The states remembered between batches are only a shortcut: call forget() after a rollback.
 */

type StreamKind = 'target' | 'candidate' | 'publication';

interface Followed<S> {
  version: number;
  /** For a target, its fold (mutable: forget() after a rollback). */
  state: S;
}

const KEPT_STREAMS = 512;
const TARGET_PREFIX = targetStreamId('');

function kindOf(streamId: string): StreamKind | null {
  if (streamId.startsWith(TARGET_PREFIX)) return 'target';
  if (streamId.startsWith(CANDIDATE_STREAM_PREFIX)) return 'candidate';
  if (streamId.startsWith(PUBLICATION_STREAM_PREFIX)) return 'publication';
  return null;
}

const VERSION_SQL: Record<StreamKind, string> = {
  target: 'SELECT stream_version AS v FROM targets WHERE target_id = $1::uuid',
  candidate: 'SELECT stream_version AS v FROM candidates WHERE candidate_id = $1::uuid',
  publication: 'SELECT stream_version AS v FROM publication_journals WHERE journal_id = $1::uuid',
};

export class InlineFollower implements AsyncProjection {
  readonly name = 'inline';
  readonly version = 1;
  readonly tables = READ_MODEL_TABLES;
  /** The state after the last version applied, per stream, for the streams seen last (the tables are the truth). */
  private readonly followed = new Map<string, Followed<unknown>>();

  async apply(tx: Sql, events: readonly StoredEvent[]): Promise<void> {
    for (const event of events) {
      const kind = kindOf(event.streamId);
      if (kind) await this.applyOne(tx, kind, event);
    }
  }

  private async applyOne(tx: Sql, kind: StreamKind, event: StoredEvent): Promise<void> {
    let at = await this.appliedVersion(tx, kind, event);
    if (event.streamVersion <= at) return;
    const pending = event.streamVersion === at + 1
      ? [event]
      : await readStream(tx, event.streamId, { fromVersion: at + 1, toVersion: event.streamVersion });
    for (const next of pending) {
      if (next.streamVersion !== at + 1) throw new Error(`${next.streamId}: version ${next.streamVersion} follows ${at}`);
      await this.project(tx, kind, next);
      at = next.streamVersion;
    }
  }

  /** Forget every remembered state: a transaction that applied some of them rolled back. */
  forget(): void {
    this.followed.clear();
  }

  private async appliedVersion(tx: Sql, kind: StreamKind, event: StoredEvent): Promise<number> {
    const known = this.followed.get(event.streamId);
    if (known && known.version === event.streamVersion - 1) return known.version;
    const { rows } = await tx.query<{ v: number }>(VERSION_SQL[kind], [idOf(kind, event.streamId)]);
    return rows[0] ? Number(rows[0].v) : 0;
  }

  private async project(tx: Sql, kind: StreamKind, s: StoredEvent): Promise<void> {
    if (kind === 'target') return this.projectTarget(tx, s);
    if (kind === 'candidate') return this.projectCandidate(tx, s);
    return this.projectPublication(tx, s);
  }

  private async projectTarget(tx: Sql, s: StoredEvent): Promise<void> {
    const fold = this.take<TargetFold>(s)?.state ?? (await targetBefore(tx, s));
    const event = upcastTargetEvent(s.type, s.schemaVersion, s.data, () => textOf(fold.state));
    const rewrite = fold.apply(event);
    await projectKnown(tx, targetProjection, [knownEvent(event, s, { state: fold.state, rewrite })]);
    this.keep(s, { version: s.streamVersion, state: fold });
  }

  private async projectCandidate(tx: Sql, s: StoredEvent): Promise<void> {
    const before = this.take<CandidateState>(s) ?? (await foldBefore(tx, s, initialCandidateState, upcastCandidateEvent, evolveCandidate));
    const event = upcastCandidateEvent(s.type, s.schemaVersion, s.data);
    const state = evolveCandidate(before.state, event);
    if (!state.exists) throw new Error(`${s.streamId}: ${event.type} left no candidate`);
    await projectKnown(tx, candidateProjection, [knownEvent(event, s, state)]);
    this.keep(s, { version: s.streamVersion, state });
  }

  private async projectPublication(tx: Sql, s: StoredEvent): Promise<void> {
    const before = this.take<PublicationState>(s) ?? (await foldBefore(tx, s, initialPublicationState, upcastPublicationEvent, evolvePublication));
    const event = upcastPublicationEvent(s.type, s.schemaVersion, s.data);
    const state = evolvePublication(before.state, event);
    if (!state.exists) throw new Error(`${s.streamId}: ${event.type} left no journal`);
    await projectKnown(tx, publicationProjection, [knownEvent(event, s, state)]);
    this.keep(s, { version: s.streamVersion, state });
  }

  /** The remembered state right before `s`, if it is that one. */
  private take<S>(s: StoredEvent): Followed<S> | null {
    const known = this.followed.get(s.streamId) as Followed<S> | undefined;
    if (!known) return null;
    this.followed.delete(s.streamId);
    return known.version === s.streamVersion - 1 ? known : null;
  }

  private keep(s: StoredEvent, followed: Followed<unknown>): void {
    this.followed.set(s.streamId, followed);
    if (this.followed.size > KEPT_STREAMS) this.followed.delete(this.followed.keys().next().value!);
  }
}

function idOf(kind: StreamKind, streamId: string): string {
  const prefix = kind === 'target' ? TARGET_PREFIX : kind === 'candidate' ? CANDIDATE_STREAM_PREFIX : PUBLICATION_STREAM_PREFIX;
  return streamId.slice(prefix.length);
}

/** A target's fold before `s`, from its row (and chunks) in the tables being built, as the decider reads it live. */
async function targetBefore(tx: Sql, s: StoredEvent): Promise<TargetFold> {
  if (s.streamVersion === 1) return new TargetFold();
  const row = await readTargetRow(tx, idOf('target', s.streamId), new ContentCache(0));
  if (!row || row.stream_version !== s.streamVersion - 1) throw new Error(`${s.streamId}: no row at version ${s.streamVersion - 1}`);
  const { stream_version: _v, last_position: _p, chunks, ...state } = row;
  return TargetFold.resume(state, chunks);
}

/** Candidate and journal streams are short: their state is folded from the stream itself. */
async function foldBefore<S, E>(
  tx: Sql, s: StoredEvent, initial: S, upcast: (type: string, v: number, data: unknown) => E, evolve: (state: S, event: E) => S,
): Promise<Followed<S>> {
  let state = initial;
  if (s.streamVersion > 1) {
    for (const e of await readStream(tx, s.streamId, { toVersion: s.streamVersion - 1 })) state = evolve(state, upcast(e.type, e.schemaVersion, e.data));
  }
  return { version: s.streamVersion - 1, state };
}
