import type { TargetDecision } from '@palimpsest/core/target/target-decision';
import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import { lockTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { CommitInput, Committed } from '../commit-events';
import type { AppContext } from '../../app-context';
import { commitOf, transactionCommitting } from '../commit-events';
import { targetUnitOfWork, type TargetUnit } from '../handle-command';
import type { Decided } from '../target-refusals';

/**
 * The one path a command on a target takes:
 *
 *   [optimistic: decide on the row read without a lock, confirmed by a one-statement guard]
 *   or locked: lock the row → decide once on what the lock shows → commit (what needs no side effect)
 *   → the side effect an accepted change asks for (a publication through the journal, an approval wait),
 *     which commits the change itself once the effect happened → wake (commit-events: after commit only).
 *
 * A use case says what each step is for its command (how it is built, what it reads besides the row,
 * what an acceptance must reach); the order, the retries of a change whose target moved under its side
 * effect, and what a refused guard means are here.
 */

/** An accepted change decided on `on` (locked, or the row read without a lock), nothing of it recorded yet. */
export interface AcceptedChange {
  attemptId: string;
  /** The `now` the change was decided with (what it is recorded at, unless it is decided again). */
  decidedAt: string;
  decided: Decided;
  on: TargetRow;
  after: ExistingTarget;
}

/** What a step decided: the answer, or a change whose side effect must run before it commits (a target's accepted change by default). */
export type Step<A, E = AcceptedChange> = { kind: 'answer'; answer: A } | { kind: 'effect'; change: E };

/** The steps of one command: what it locks and loads, what it decides there, and the side effect of what it decided. */
export interface CommandPlan<L, A, E = AcceptedChange> {
  /**
   * Decided on what was read without a lock: a Step, 'declined' (the path does not apply: take the lock)
   * or 'refused' (its guard found the row moved or the key taken: nothing was written; take the lock).
   */
  optimistic?: () => Promise<Step<A, E> | 'declined' | 'refused'>;
  /** Told the locked path's step after the optimistic guard refused (e.g. to mark a target contended). */
  afterRefusedGuard?: (step: Step<A, E>) => void;
  /** In one transaction: lock and load what the command decides on. */
  load: (unit: TargetUnit) => Promise<L>;
  /** In that transaction, under its locks: decide once, and commit what needs no side effect. */
  locked: (loaded: L, unit: TargetUnit) => Promise<Step<A, E>>;
  /** The side effect the change asks for, which commits it; 'moved' when what it changes moved meanwhile (nothing was written). */
  effect?: (change: E) => Promise<A | 'moved'>;
  /** How often a change that moved under its effect is decided again from the start, and the answer after the last. */
  rounds?: { max: number; moved: (change: E) => A };
}

/** A command on one target: its row is what the locked step decides on (null: no such target). */
export type TargetCommandPlan<A> = Omit<CommandPlan<TargetRow | null, A>, 'load'> & { targetId: string };

export function runTargetCommand<A>(ctx: AppContext, plan: TargetCommandPlan<A>): Promise<A> {
  return runCommand(ctx, { ...plan, load: (unit) => lockTargetRow(unit.tx, plan.targetId, ctx.contents) });
}

export async function runCommand<L, A, E>(ctx: AppContext, plan: CommandPlan<L, A, E>): Promise<A> {
  for (let round = 1; ; round++) {
    const fast = plan.optimistic ? await plan.optimistic() : 'declined';
    const step = typeof fast === 'object' ? fast : await targetUnitOfWork(ctx)(async (unit) => plan.locked(await plan.load(unit), unit));
    if (fast === 'refused') plan.afterRefusedGuard?.(step);
    if (step.kind === 'answer') return step.answer;
    if (!plan.effect) throw new Error('a decision asks for a side effect its command has none of');
    const done = await plan.effect(step.change);
    if (done !== 'moved') return done;
    if (!plan.rounds) throw new Error('a change moved under its side effect and its command cannot say so');
    if (round >= plan.rounds.max) return plan.rounds.moved(step.change);
  }
}

/** The hash an accepted (not recovered) decision leaves the target at; null for anything else. */
export function acceptedHash(d: TargetDecision): string | null {
  const e = d.kind === 'decided' && !d.recoveredAttemptId ? d.events[0] : undefined;
  return e?.type === 'ProposalAccepted' ? e.data.after_hash : null;
}

/** The decision as an accepted change to carry out, or null when it is no acceptance (a rejection, a refusal, a recovered attempt). */
export function acceptedChange(d: TargetDecision, on: TargetRow, attemptId: string, decidedAt: string): AcceptedChange | null {
  if (d.kind !== 'decided' || acceptedHash(d) === null) return null;
  if (!d.state.exists) throw new Error(`target ${on.target_id}: an accepted change left no target`);
  return { attemptId, decidedAt, decided: d, on, after: d.state };
}

/** The commit step: a decision taken on `row` (locked in `unit`, or confirmed by the caller's guard) appended with its read models. */
export function commitDecided(unit: Pick<TargetUnit, 'commit'>, row: TargetRow, d: Decided, recordedAt: string, metadata: Record<string, unknown>): Promise<Committed> {
  return unit.commit(commitOf(row, d, recordedAt, metadata));
}

/** The commit of a new target's first events (its stream starts at version 0: there is no row to lock). */
export function newTargetCommit(targetId: string, d: Decided, recordedAt: string, metadata: Record<string, unknown>): CommitInput {
  return { targetId, streamVersion: 0, previousChunks: [], events: d.events, stateAfter: d.state, recordedAt, metadata };
}

/** A target created: its first events committed in a transaction of their own, woken once durable. */
export function createTargetStream(ctx: AppContext, targetId: string, d: Decided, recordedAt: string, metadata: Record<string, unknown>): Promise<Committed> {
  return transactionCommitting(ctx, (_tx, commit) => commit(newTargetCommit(targetId, d, recordedAt, metadata)));
}
