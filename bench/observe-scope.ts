import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fromMarkdown } from 'mdast-util-from-markdown';
import { gfmFromMarkdown } from 'mdast-util-gfm';
import { gfm } from 'micromark-extension-gfm';
import { type AppContext } from '@palimpsest/application/app-context';
import { appContext } from '@palimpsest/composition/app-context.builder';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { OutlineCache } from '@palimpsest/application/observe-scope/outline-cache';
import { migrate } from '@palimpsest/store/migrate';
import { openDb } from '@palimpsest/store/open-db';
import { codeParser } from '@palimpsest/structure/code-grammars';
import { scanMarkdownBlocks } from '@palimpsest/structure/markdown-blocks';
import { structureEngine } from '@palimpsest/structure/structure-engine';
import { createBenchDatabase } from './bench-database';
import { envNumber, f2, nowMs, summarize, table } from './stats';
import { benchStore } from './deployed-env';

/**
 * Issue 16's benchmark: palimpsest_observe_scope candidate discovery (query + kind, nothing recorded) and
 * exact selection (one match: a ScopeObserved recorded under the row lock) on a 5,000-line TypeScript
 * file and a 1 MB Markdown document, in process, cold (a fresh outline cache: the version's first parse)
 * and warm (its outline cached), beside the bare parse of the same parser in the same run (tree-sitter's
 * parse; mdast-util-from-markdown with GFM, the full parse a Markdown document the block scan declines
 * takes), the Markdown block scan alone, and the engine's outline (parse or scan + symbol walk + lines).
 *
 *   npm run build && node dist/bench/observe-scope.js                      # PGlite
 *   npm run build && DATABASE_URL=postgres://postgres@127.0.0.1:5432/postgres node dist/bench/observe-scope.js
 *
 * Env: BENCH_SCOPE_RUNS_TS (40), BENCH_SCOPE_RUNS_MD (12).
 */

const WARMUP = 2;

/** 5,000 lines: 125 classes of 5 methods (8 lines each) with a function between, astral characters in strings. */
function typescriptFile(): string {
  const lines: string[] = [];
  for (let c = 0; lines.length < 4990; c++) {
    lines.push(`export class Service${c} {`);
    for (let m = 0; m < 4; m++) lines.push(`  method${m}(input: string): string {`, `    const label = '😀 ${c}.${m}';`, `    return input + label;`, `  }`);
    lines.push('}', `export function helper${c}(x: number): number {`, `  return x * ${c};`, '}', '');
  }
  return `${lines.slice(0, 5000).join('\n')}\n`;
}

/** About 10^6 bytes of Markdown: nested sections with paragraphs, code blocks and tables. */
function markdownDocument(): string {
  const parts: string[] = [];
  let bytes = 0;
  for (let s = 0; bytes < 1_000_000; s++) {
    const part = `## Section ${s}\n\nSome text about 𝒜 topic ${s}, with *emphasis* and \`code\`.\n\n### Details ${s}\n\n\`\`\`ts\nconst x${s} = ${s};\n\`\`\`\n\n| key | value |\n| --- | ----- |\n| k${s} | v${s} |\n\n`;
    parts.push(part);
    bytes += Buffer.byteLength(part);
  }
  return `# Document\n\n${parts.join('')}`;
}

interface Case {
  label: string;
  filename: string;
  text: string;
  runs: number;
  discover: Record<string, unknown>;
  select: Record<string, unknown>;
  bareParse: () => Promise<void>;
  blockScan?: () => void;
}

interface Row {
  label: string;
  samples: Record<'bare parse' | 'block scan' | 'engine outline' | 'discovery cold' | 'discovery warm' | 'selection cold' | 'selection warm', number[]>;
  symbols: number;
}

async function timed(fn: () => Promise<unknown>): Promise<number> {
  const t = nowMs();
  await fn();
  return nowMs() - t;
}

async function measure(base: AppContext, c: Case): Promise<Row> {
  const created = (await dispatch(base, 'palimpsest_initialize_target', { filename: c.filename, content: c.text })) as Record<string, any>;
  const id = created.target_file_id as string;
  const engine = structureEngine();
  const language = engine.languageOf(c.filename, 'text/plain')!;
  const row: Row = { label: c.label, symbols: 0, samples: { 'bare parse': [], 'block scan': [], 'engine outline': [], 'discovery cold': [], 'discovery warm': [], 'selection cold': [], 'selection warm': [] } };
  const expect = async (ctx: AppContext, args: Record<string, unknown>, status: string) => {
    const r = (await dispatch(ctx, 'palimpsest_observe_scope', { target_file_id: id, ...args })) as Record<string, any>;
    if (r.status !== status) throw new Error(`${status} expected: ${JSON.stringify(r).slice(0, 300)}`);
  };
  for (let n = 1; n <= c.runs + WARMUP; n++) {
    const bare = await timed(c.bareParse);
    const scan = c.blockScan ? await timed(async () => c.blockScan!()) : null;
    const outlined = await timed(async () => (row.symbols = (await engine.outline(language, c.text)).symbols.length));
    const cold = { ...base, outlines: new OutlineCache(engine) };
    const discoveryCold = await timed(() => expect(cold, c.discover, 'candidates'));
    const discoveryWarm = await timed(() => expect(cold, c.discover, 'candidates'));
    const coldAgain = { ...base, outlines: new OutlineCache(engine) };
    const selectionCold = await timed(() => expect(coldAgain, c.select, 'observed'));
    const selectionWarm = await timed(() => expect(coldAgain, c.select, 'observed'));
    if (n <= WARMUP) continue;
    const s = row.samples;
    s['bare parse'].push(bare);
    if (scan !== null) s['block scan'].push(scan);
    s['engine outline'].push(outlined);
    s['discovery cold'].push(discoveryCold);
    s['discovery warm'].push(discoveryWarm);
    s['selection cold'].push(selectionCold);
    s['selection warm'].push(selectionWarm);
  }
  return row;
}

function report(backend: string, rows: Row[]): void {
  const names = Object.keys(rows[0]!.samples) as (keyof Row['samples'])[];
  const cell = (xs: number[], p: 'p50' | 'p99') => (xs.length ? f2(summarize(xs)[p]) : '–');
  const out = names.map((name) => [name, ...rows.flatMap((r) => [cell(r.samples[name], 'p50'), cell(r.samples[name], 'p99')])]);
  const runs = rows.map((r) => `${r.label}: ${r.samples['bare parse'].length} runs, ${r.symbols} symbols`).join('; ');
  table(`palimpsest_observe_scope on ${backend}, ms (${runs})`, ['measure', ...rows.flatMap((r) => [`${r.label} p50`, `${r.label} p99`])], out);
  for (const r of rows) {
    const bare = summarize(r.samples['bare parse']).p50;
    const ratio = (name: keyof Row['samples']) => `${name} ${f2(summarize(r.samples[name]).p50 / bare)}×`;
    console.log(`${r.label}, p50 against the bare parse: ${ratio('engine outline')}, ${ratio('discovery cold')}, ${ratio('selection cold')}`);
  }
}

async function main(): Promise<void> {
  const adminUrl = process.env.DATABASE_URL;
  const database = adminUrl ? await createBenchDatabase(adminUrl) : null;
  const dataRoot = mkdtempSync(join(tmpdir(), 'palimpsest-bench-scope-db-'));
  const db = await openDb(database ? { databaseUrl: database.url } : { dataDir: join(dataRoot, 'data') }, benchStore());
  try {
    await migrate(db);
    const ctx = appContext(db, { workspace: null });
    const ts = typescriptFile();
    const md = markdownDocument();
    const parser = await codeParser('typescript');
    const cases: Case[] = [
      {
        label: 'TS 5,000 lines',
        filename: 'bench.ts',
        text: ts,
        runs: Math.round(envNumber('BENCH_SCOPE_RUNS_TS', 40)),
        discover: { query: 'method3', kind: 'method' },
        select: { symbol_name: 'Service60.method2' },
        bareParse: async () => parser.parse(ts)?.delete(),
      },
      {
        label: 'Markdown 1 MB',
        filename: 'bench.md',
        text: md,
        runs: Math.round(envNumber('BENCH_SCOPE_RUNS_MD', 12)),
        discover: { query: 'details 99', kind: 'section' },
        select: { symbol_name: 'Document.Section 1234.Details 1234' },
        bareParse: async () => void fromMarkdown(md, { extensions: [gfm()], mdastExtensions: [gfmFromMarkdown()] }),
        blockScan: () => {
          if (!scanMarkdownBlocks(md)) throw new Error('the block scan declined the bench document');
        },
      },
    ];
    const rows: Row[] = [];
    for (const c of cases) rows.push(await measure(ctx, c));
    report(database ? 'PostgreSQL' : 'PGlite', rows);
  } finally {
    await db.close();
    await database?.drop();
    rmSync(dataRoot, { recursive: true, force: true });
  }
}

main().catch((e) => {
  console.error(e);
  process.exit(1);
});
