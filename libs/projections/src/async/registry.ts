import type { AsyncProjection } from './async-projection.port';

/** Every asynchronous read model the projector runs, in the order it runs them. */
export const ASYNC_PROJECTIONS: readonly AsyncProjection[] = [];
