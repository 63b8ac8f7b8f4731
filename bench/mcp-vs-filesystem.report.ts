import { f2, percentile, table } from './stats';
import type { PhaseRow } from './scenarios';

export interface Summary {
  samples: number;
  p50: number;
  p90: number;
  mean: number;
  max: number;
}

export function summarize(samples: number[]): Summary {
  const sorted = [...samples].sort((a, b) => a - b);
  return {
    samples: sorted.length,
    p50: percentile(sorted, 50),
    p90: percentile(sorted, 90),
    mean: sorted.reduce((a, b) => a + b, 0) / (sorted.length || NaN),
    max: sorted[sorted.length - 1] ?? NaN,
  };
}

export interface Size {
  label: string;
  bytes: number;
  iterations: number;
}

export type PathName = 'ours-stdio' | 'fs-stdio' | 'ours-dispatch' | 'ours-inmemory-mcp' | 'fs-applyFileEdits';

export interface SizeResult {
  backend: string;
  size: Size;
  samples: Record<PathName, number[]>;
  serverCpuMsPerCall: { ours: number; fs: number };
  wire: { oursRequest: number; oursResponse: number; fsRequest: number; fsResponse: number };
  /** dispatch() in process through a Db that times every round trip (run after the interleaved loop). */
  profile: { totalMs: number; rows: PhaseRow[] };
}

export function report(results: SizeResult[], pings: { backend: string; ours: Summary; fs: Summary }[]): void {
  const rows: (string | number)[][] = [];
  for (const r of results) {
    const ours = summarize(r.samples['ours-stdio']);
    const fs = summarize(r.samples['fs-stdio']);
    const ratio = ours.p50 / fs.p50;
    rows.push([
      r.backend,
      r.size.label,
      ours.samples,
      f2(ours.p50),
      f2(ours.p90),
      f2(fs.p50),
      f2(fs.p90),
      `${ratio.toFixed(2)}×`,
      `${(ours.p90 / fs.p90).toFixed(2)}×`,
      ratio <= 1.5 ? 'met' : 'missed',
    ]);
  }
  table(
    'Round trip of one 1-edit submit over MCP stdio (ms): palimpsest_submit_edits vs server-filesystem edit_file',
    ['backend', 'target', 'n', 'ours p50', 'ours p90', 'fs p50', 'fs p90', 'p50 ratio', 'p90 ratio', 'aim ≤ 1.5×'],
    rows,
  );

  const breakdown: (string | number)[][] = [];
  for (const r of results) {
    const p50 = (p: PathName) => summarize(r.samples[p]).p50;
    const ping = pings.find((p) => p.backend === r.backend)!;
    breakdown.push([
      r.backend,
      r.size.label,
      f2(p50('ours-dispatch')),
      f2(p50('ours-inmemory-mcp') - p50('ours-dispatch')),
      f2(p50('ours-stdio') - p50('ours-inmemory-mcp')),
      f2(p50('ours-stdio')),
      f2(r.serverCpuMsPerCall.ours),
      f2(p50('fs-applyFileEdits')),
      f2(p50('fs-stdio') - p50('fs-applyFileEdits')),
      f2(p50('fs-stdio')),
      f2(r.serverCpuMsPerCall.fs),
      f2(ping.ours.p50),
      f2(ping.fs.p50),
    ]);
  }
  table(
    'Where the time goes (differences of p50s, ms; server CPU = user+system of the server process per call, 10 ms ticks)',
    [
      'backend',
      'target',
      'dispatch()',
      '+ MCP (in memory)',
      '+ stdio hop',
      '= ours stdio',
      'ours server CPU',
      'applyFileEdits()',
      '+ MCP + stdio',
      '= fs stdio',
      'fs server CPU',
      'ping ours',
      'ping fs',
    ],
    breakdown,
  );

  const phases = [...new Set(results.flatMap((r) => r.profile.rows.map((row) => row.phase)))];
  table(
    'dispatch() in process, phases (ms per submit, mean; statements timed through a wrapping Db, run after the interleaved loop)',
    ['phase', ...results.map((r) => `${r.backend} ${r.size.label}`)],
    [
      ...phases.map((phase) => [
        phase,
        ...results.map((r) => {
          const row = r.profile.rows.find((x) => x.phase === phase);
          return row ? f2(row.msPerSubmit) : '';
        }),
      ]),
      ['total', ...results.map((r) => f2(r.profile.totalMs))],
    ],
  );

  table(
    'Bytes on the wire per call (JSON of the tools/call params and of the result)',
    ['backend', 'target', 'ours request', 'ours response', 'fs request', 'fs response'],
    results.map((r) => [r.backend, r.size.label, r.wire.oursRequest, r.wire.oursResponse, r.wire.fsRequest, r.wire.fsResponse]),
  );
}
