import type { StoreTx } from '@palimpsest/store/event-store';
import type { AppContext } from '../app-context';
import { transactionCommitting, type CommitTargetEvents } from './commit-events';

/**
 * Every command's conflict policy, one for both aggregates:
 *   1. the optimistic path, when the aggregate offers one: decided on this process's last committed
 *      head and committed by ONE guarded statement (batched under load by the group commit);
 *   2. otherwise, or when that guard refused, the locked path: in one transaction, lock and load the
 *      aggregate, decide on exactly what the lock shows, commit the events with their read models.
 * The plan says what each step is for its aggregate; the order, and what a refused guard means, is here.
 */
export interface CommandPlan<U, L, D, A> {
  /** Answered, or why not: 'declined' (the path does not apply), 'refused' (its guard found the row moved or taken). */
  optimistic?: () => Promise<A | 'declined' | 'refused'>;
  /** Told the locked path's answer after the optimistic guard refused (e.g. to mark a target contended). */
  afterRefusedGuard?: (answer: A) => void;
  /** The transaction the locked path runs in, and what its steps are handed (the transaction, a commit). */
  unitOfWork: <T>(work: (unit: U) => Promise<T>) => Promise<T>;
  load: (unit: U) => Promise<L>;
  decide: (loaded: L, unit: U) => D | Promise<D>;
  /** Writes what was decided (if anything) and answers. */
  commit: (loaded: L, decision: D, unit: U) => Promise<A>;
}

export async function handleCommand<U, L, D, A extends object>(plan: CommandPlan<U, L, D, A>): Promise<A> {
  const fast = plan.optimistic ? await plan.optimistic() : 'declined';
  if (typeof fast === 'object') return fast;
  const answer = await plan.unitOfWork(async (unit) => {
    const loaded = await plan.load(unit);
    return plan.commit(loaded, await plan.decide(loaded, unit), unit);
  });
  if (fast === 'refused') plan.afterRefusedGuard?.(answer);
  return answer;
}

/** The target aggregate's unit of work: a transaction whose commits reach the cache and the listeners only once it is durable. */
export type TargetUnit = { tx: StoreTx; commit: CommitTargetEvents };
export const targetUnitOfWork =
  (ctx: AppContext) =>
  <T>(work: (unit: TargetUnit) => Promise<T>): Promise<T> =>
    transactionCommitting(ctx, (tx, commit) => work({ tx, commit }));

/** The candidate aggregate's unit of work: one store transaction (its commits wake no cache). */
export const candidateUnitOfWork =
  (ctx: AppContext) =>
  <T>(work: (tx: StoreTx) => Promise<T>): Promise<T> =>
    ctx.store.transaction(work);
