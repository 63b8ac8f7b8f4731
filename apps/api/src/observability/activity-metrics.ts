import { Gauge, type Registry } from 'prom-client';
import { allTimeActivity, type ActivityGroupRow } from '@palimpsest/application/read-models/activity-totals';
import type { Sql } from '@palimpsest/store/db';

/** Sources are client text: the busiest this many get their own label value, the rest are summed as "other". */
const ACTIVITY_SOURCE_LABELS = 20;

function bySource(rows: ActivityGroupRow[]): [string, number][] {
  const sums = new Map<string, number>();
  for (const r of rows) sums.set(r.source, (sums.get(r.source) ?? 0) + r.attempts);
  const ranked = [...sums].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]));
  const other = ranked.slice(ACTIVITY_SOURCE_LABELS).reduce((n, [, v]) => n + v, 0);
  return [...ranked.slice(0, ACTIVITY_SOURCE_LABELS), ...(other > 0 ? [['other', other] as [string, number]] : [])];
}

/**
 * The activity read model on /metrics: attempts counted over every target since the beginning of the
 * log, read from its totals table at each scrape (one small query). It follows the projection, so it
 * lags the writes by the projection's lag (see the projection lag metrics); a rebuild starts it over.
 */
export function registerActivityMetrics(registry: Registry, sql: Sql): void {
  // The gauges of one scrape share one read: the totals are read at most once a second. A store without the
  // activity table yet (not migrated) exports no series rather than failing the scrape.
  let cached: { at: number; rows: Promise<ActivityGroupRow[]> } | null = null;
  const read = () => {
    if (!cached || performance.now() - cached.at > 1000) cached = { at: performance.now(), rows: allTimeActivity(sql).catch(() => []) };
    return cached.rows;
  };
  new Gauge({
    name: 'palimpsest_activity_attempts',
    help: 'Attempts counted by the activity read model, by status and failure reason ("none" for acceptances)',
    labelNames: ['status', 'failure_reason'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const r of await read()) this.inc({ status: r.status, failure_reason: r.failure_reason || 'none' }, r.attempts);
    },
  });
  new Gauge({
    name: 'palimpsest_activity_attempts_by_source',
    help: `Attempts counted by the activity read model, by source (the ${ACTIVITY_SOURCE_LABELS} busiest; the rest as "other")`,
    labelNames: ['source'] as const,
    registers: [registry],
    async collect() {
      this.reset();
      for (const [source, n] of bySource(await read())) this.set({ source }, n);
    },
  });
  new Gauge({
    name: 'palimpsest_activity_retries',
    help: 'Attempts that name the attempt they retry (parent_attempt_id), counted by the activity read model',
    registers: [registry],
    async collect() {
      this.set((await read()).reduce((n, r) => n + r.retries, 0));
    },
  });
  new Gauge({
    name: 'palimpsest_activity_acceptance_ratio',
    help: 'Accepted attempts over all attempts counted by the activity read model (0 before any)',
    registers: [registry],
    async collect() {
      const all = await read();
      const attempts = all.reduce((n, r) => n + r.attempts, 0);
      const accepted = all.filter((r) => r.status === 'accepted').reduce((n, r) => n + r.attempts, 0);
      this.set(attempts === 0 ? 0 : accepted / attempts);
    },
  });
}
