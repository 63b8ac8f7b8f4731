/** `PALIMPSEST_PROJECTOR=off` keeps a gateway from running the projector in-process. */
export function projectorEnabled(env: NodeJS.ProcessEnv = process.env): boolean {
  return (env.PALIMPSEST_PROJECTOR ?? '').toLowerCase() !== 'off';
}

/**
 * Events per batch (one transaction each), PALIMPSEST_PROJECTOR_BATCH_SIZE, default 500: larger batches
 * catch up faster (a read model such as search amortizes its work per touched target over a batch),
 * smaller ones commit sooner and lose less work to a crash.
 */
export function projectorBatchSize(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env.PALIMPSEST_PROJECTOR_BATCH_SIZE;
  if (raw === undefined || raw === '') return 500;
  const size = Number(raw);
  if (!Number.isSafeInteger(size) || size < 1 || size > 10_000) {
    throw new RangeError(`PALIMPSEST_PROJECTOR_BATCH_SIZE must be an integer from 1 to 10000, got ${JSON.stringify(raw)}`);
  }
  return size;
}
