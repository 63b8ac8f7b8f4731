import { setFlagsFromString } from 'node:v8';

/**
 * Which of V8's WebAssembly compilers builds PGlite's 9 MB PostgreSQL module (PALIMPSEST_PGLITE_WASM).
 * `baseline` compiles it with Liftoff alone: the optimizing tier's second copy of the code is what
 * took the embedded gateway past 300 MB at its first start, and PGlite's time goes to crossing into
 * and out of the module more than to the code inside it (docs/benchmarks.md, "PGlite's WebAssembly
 * tier"). `optimized` is V8's default: Liftoff first, hot functions recompiled by TurboFan.
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
