import { hasReached } from '@palimpsest/projections/async/projection-checkpoints';
import { projectionFreshness } from '@palimpsest/projections/async/projection-freshness.queries';
import { MIN_POSITION_MAX_WAIT_MS } from '@palimpsest/protocol/catalog/operations/read-models.operations';
import type { AppContext } from '../app-context';
import { pollUntil } from './poll-until';


export interface FreshnessInput {
  min_position?: number | null;
  max_wait_ms?: number | null;
}

export interface ProjectionReport {
  name: string;
  checkpoint_position: number;
  caught_up: boolean;
  behind_by_events: number;
  min_position: number | null;
  min_position_reached: boolean | null;
  waited_ms: number;
}

/**
 * Read-your-writes for an asynchronous read model: with min_position, waits until the projection has
 * handled that position (polling its checkpoint, at most max_wait_ms, capped at 5 s), then reports where
 * the projection stands. Never hangs: a projection that is stopped or behind is reported, not waited out.
 */
export async function awaitProjection(ctx: AppContext, name: string, input: FreshnessInput): Promise<ProjectionReport> {
  const minPosition = input.min_position ?? null;
  const budget = Math.min(input.max_wait_ms ?? MIN_POSITION_MAX_WAIT_MS, MIN_POSITION_MAX_WAIT_MS);
  const started = performance.now();
  let reached: boolean | null = null;
  if (minPosition !== null) reached = await pollUntil(() => hasReached(ctx.db, name, minPosition), budget);
  const waited = Math.round(performance.now() - started);
  const { checkpoint_position, behind_by_events } = await projectionFreshness(ctx.db, name);
  return {
    name,
    checkpoint_position,
    caught_up: behind_by_events === 0,
    behind_by_events,
    min_position: minPosition,
    min_position_reached: reached,
    waited_ms: minPosition === null ? 0 : waited,
  };
}
