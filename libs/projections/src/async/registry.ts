import type { AsyncProjection } from './async-projection.port';
import { activityProjection } from './activity/activity.projection';
import { searchProjection } from './search/search.projection';

/** Every asynchronous read model the projector runs, in the order it runs them. */
export const ASYNC_PROJECTIONS: readonly AsyncProjection[] = [searchProjection, activityProjection];
