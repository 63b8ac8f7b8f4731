import { computeNearMisses, type NearMisses } from '../libs/core/src/diagnostics/near-misses';
import { referenceNearMisses } from '../libs/core/src/diagnostics/near-misses.reference';

/**
 * Near-miss search on 65,536-code-point fixtures: the banded diagonal wave behind the pigeonhole
 * filter (computeNearMisses) against the unpruned, unbanded brute force (referenceNearMisses), both
 * measured in this run. Medians of 5 runs after three warm-up runs; the ranking of both must agree.
 *
 *   npx tsc --outDir /tmp/near-misses-bench --rootDir . --module commonjs --target ES2022 \
 *     --strict --skipLibCheck --types node bench/near-misses.bench.ts \
 *     && node /tmp/near-misses-bench/bench/near-misses.bench.js
 *
 * (or `npm run build && node dist/bench/near-misses.bench.js`). Env: NEAR_MISS_RUNS (default 5).
 */

const SIZE = 65_536;
const RUNS = Number(process.env.NEAR_MISS_RUNS ?? 5);
const WARMUPS = 2;

/** Deterministic fixtures: a fixed linear congruential sequence, no Math.random. */
function sequence(seed: number): () => number {
  let state = seed >>> 0;
  return () => {
    state = (Math.imul(state, 1_664_525) + 1_013_904_223) >>> 0;
    return state / 2 ** 32;
  };
}

const WORDS = (
  'the of and a to in is was that for it with as his on be at by had this not are but from or have an ' +
  'they which one you were her all she there would their we him been has when who will more no if out ' +
  'ledger margin parchment scribe erased beneath older writing revision guarded version proposal target ' +
  'buffer window distance threshold candidate river lantern harbour quietly across northern valley ' +
  'because although whenever measured careful ordinary sentence paragraph chapter archive library ' +
  'merchant weather morning evening garden silver copper engine station letter answer question'
).split(' ');

function prose(seed: number, emoji: boolean): string {
  const next = sequence(seed);
  const pick = <T>(items: readonly T[]): T => items[Math.floor(next() * items.length)];
  const parts: string[] = [];
  let chars = 0;
  while (chars < SIZE) {
    const length = 6 + Math.floor(next() * 14);
    const words = Array.from({ length }, () => pick(WORDS));
    words[0] = words[0][0].toUpperCase() + words[0].slice(1);
    if (emoji && next() < 0.3) words.splice(Math.floor(next() * length), 0, pick(['\u{1F4DC}', '\u{1F58B}', '\u00e9t\u00e9', '\u{20000}']));
    const sentence = `${words.join(' ')}${pick(['.', '.', '.', '?', '!', ';'])}${next() < 0.15 ? '\n\n' : ' '}`;
    parts.push(sentence);
    chars += Array.from(sentence).length;
  }
  return Array.from(parts.join('')).slice(0, SIZE).join('');
}

function logs(seed: number): string {
  const next = sequence(seed);
  const paths = ['/v1/targets', '/v1/targets/{id}/proposals', '/v1/targets/{id}/lines', '/v1/health'];
  const lines: string[] = [];
  let chars = 0;
  for (let n = 0; chars < SIZE; n++) {
    const ms = String(n * 37 % 1000).padStart(3, '0');
    const second = String(Math.floor(n / 7) % 60).padStart(2, '0');
    const status = next() < 0.9 ? 200 : 409;
    const line =
      `2026-03-14T09:${String(Math.floor(n / 420) % 60).padStart(2, '0')}:${second}.${ms}Z INFO api.request ` +
      `method=${next() < 0.7 ? 'GET' : 'POST'} path=${paths[Math.floor(next() * paths.length)]} ` +
      `status=${status} duration_ms=${1 + Math.floor(next() * 90)} request_id=req-${String(n).padStart(6, '0')}\n`;
    lines.push(line);
    chars += line.length;
  }
  return lines.join('').slice(0, SIZE);
}

/** A query cut from the fixture with edits, so it is near but never an exact occurrence. */
function editedExcerpt(text: string, at: number, length: number, edits: [number, string][]): string {
  const chars = Array.from(text).slice(at, at + length);
  for (const [pos, ch] of edits) chars[pos] = ch;
  const query = chars.join('');
  if (text.includes(query)) throw new Error('fixture query must not occur exactly');
  return query;
}

function median(values: number[]): number {
  const sorted = [...values].sort((a, b) => a - b);
  return sorted[Math.floor(sorted.length / 2)];
}

function time<T>(run: () => T): { ms: number; value: T } {
  let value = run();
  for (let i = 0; i < WARMUPS; i++) value = run();
  const samples: number[] = [];
  for (let i = 0; i < RUNS; i++) {
    const t0 = process.hrtime.bigint();
    value = run();
    samples.push(Number(process.hrtime.bigint() - t0) / 1e6);
  }
  return { ms: median(samples), value };
}

function sameRanking(fast: NearMisses, brute: ReturnType<typeof referenceNearMisses>): boolean {
  const a = fast.candidates.map((c) => `${c.start}:${c.end}:${c.distance}`).join(',');
  const b = brute.windows.map((c) => `${c.start}:${c.end}:${c.distance}`).join(',');
  return a === b && fast.candidates_truncated === brute.more;
}

interface Fixture {
  name: string;
  buffer: string;
  query: string;
}

const proseText = prose(7, false);
const astralText = prose(11, true);
const logText = logs(3);
const fixtures: Fixture[] = [
  { name: 'varied prose', buffer: proseText, query: editedExcerpt(proseText, 40_000, 48, [[5, 'x'], [30, 'q']]) },
  { name: 'prose with astral', buffer: astralText, query: editedExcerpt(astralText, 30_000, 40, [[9, 'z']]) },
  { name: 'repetitive logs', buffer: logText, query: editedExcerpt(logText, 50_000, 60, [[20, '7'], [44, 'X']]) },
  { name: 'homogeneous (cap)', buffer: 'a'.repeat(SIZE), query: 'aaaaaaab' },
];

console.log(`near misses, ${SIZE.toLocaleString('en')} code points, median of ${RUNS} runs (Node ${process.version})`);
console.log('fixture            | query | wave ms | cells     | scanned | found | brute ms | speed-up | same');
for (const f of fixtures) {
  const fast = time(() => computeNearMisses(f.buffer, f.query, { scanSource: 'failing_buffer' }));
  const r = fast.value;
  const brute = time(() => referenceNearMisses(f.buffer, f.query, r.scanned_end));
  const starts = Math.max(0, Array.from(f.buffer).length - Math.max(1, r.query_chars - 1) + 1);
  const scanned = (100 * (r.scanned_end - r.scanned_start)) / starts;
  console.log(
    [
      f.name.padEnd(18),
      String(r.query_chars).padStart(5),
      fast.ms.toFixed(2).padStart(7),
      String(r.comparison_cells).padStart(9),
      `${scanned.toFixed(0)}%`.padStart(7),
      `${r.returned_count}@${r.candidates.map((c) => c.distance).join('/') || '-'}`.padStart(5),
      brute.ms.toFixed(1).padStart(8),
      `${(brute.ms / fast.ms).toFixed(1)}x`.padStart(8),
      sameRanking(r, brute.value) ? 'yes' : 'NO',
    ].join(' | '),
  );
}
console.log('brute force: unbanded, unpruned full Levenshtein table per window start over the same scanned range.');
