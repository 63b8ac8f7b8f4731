import { setFlagsFromString } from 'node:v8';

/**
 * Which of V8's WebAssembly compilers builds PGlite's 9 MB PostgreSQL module (PALIMPSEST_PGLITE_WASM).
 * `baseline` compiles it with Liftoff alone: the optimizing tier's second copy of the code was about
 * 70 MB of the embedded gateway's first-start peak, and its compile a third of the store's open time.
 * The price is throughput at saturation (a tenth to a fifth fewer submits per second on one PGlite), far
 * above what one user's agents send (docs/benchmarks.md, "PGlite's WebAssembly tier"). `optimized` is
 * V8's default: Liftoff first, hot functions recompiled by TurboFan.
 */
export type WasmTier = 'baseline' | 'optimized';

export const WASM_TIERS: readonly WasmTier[] = ['baseline', 'optimized'];

export const isWasmTier = (value: string): value is WasmTier => (WASM_TIERS as readonly string[]).includes(value);

let baselineCompiles = 0;

/**
 * Runs `start` (which compiles PGlite's module) with Liftoff as the only tier, then gives later
 * compiles (tree-sitter's grammars) V8's default back. Overlapping starts keep the flag until the last ends.
 */
export async function compiledAt<T>(tier: WasmTier, start: () => Promise<T>): Promise<T> {
  if (tier === 'optimized') return start();
  if (baselineCompiles++ === 0) setFlagsFromString('--liftoff-only');
  try {
    return await start();
  } finally {
    if (--baselineCompiles === 0) setFlagsFromString('--no-liftoff-only');
  }
}
