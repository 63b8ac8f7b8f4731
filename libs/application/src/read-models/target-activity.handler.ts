import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { activityProjection } from '@palimpsest/projections/async/activity/activity.projection';
import {
  activityGroups,
  activitySeries,
  type ActivityGranularity,
  type ActivityGroupRow,
  type ActivitySeriesRow,
} from '@palimpsest/projections/async/activity/activity.queries';
import { targetExists } from '@palimpsest/projections/attempts.queries';
import type { AppContext } from '../app-context';
import { notFound, targetIdOf } from '../shared/target-lookup';
import { awaitProjection, type FreshnessInput } from './projection-wait';

export const ACTIVITY_DEFAULT_WINDOW_MINUTES = 60;
const MINUTE_MS = 60_000;

export interface TargetActivityInput extends FreshnessInput {
  target_file_id?: string | null;
  window_minutes?: number | null;
  until?: string | null;
}

interface Counts {
  attempts: number;
  accepted: number;
  rejected: number;
  retries: number;
}

const ZERO: Counts = { attempts: 0, accepted: 0, rejected: 0, retries: 0 };

function add(into: Counts, r: { status: 'accepted' | 'rejected'; attempts: number; retries: number }): Counts {
  return { attempts: into.attempts + r.attempts, accepted: into.accepted + (r.status === 'accepted' ? r.attempts : 0),
    rejected: into.rejected + (r.status === 'rejected' ? r.attempts : 0), retries: into.retries + r.retries };
}

/** A series of at most ~180 points: minutes up to 3 hours, hours up to a week, then days. */
function granularityOf(windowMinutes: number): ActivityGranularity {
  if (windowMinutes <= 180) return 'minute';
  return windowMinutes <= 7 * 24 * 60 ? 'hour' : 'day';
}

/** The window in whole minutes: until rounded up to its minute (exclusive), since that many minutes before. */
function windowOf(until: string, minutes: number) {
  const end = Math.ceil(Date.parse(until) / MINUTE_MS) * MINUTE_MS;
  return { since: new Date(end - minutes * MINUTE_MS).toISOString(), until: new Date(end).toISOString(), granularity: granularityOf(minutes) };
}

function grouped<K extends 'source' | 'failure_reason'>(rows: ActivityGroupRow[], key: K): Map<string, Counts> {
  const by = new Map<string, Counts>();
  for (const r of rows) by.set(r[key], add(by.get(r[key]) ?? ZERO, r));
  return by;
}

function seriesOf(rows: ActivitySeriesRow[]) {
  const by = new Map<string, Counts>();
  for (const r of rows) {
    const bucket = r.bucket.toISOString();
    by.set(bucket, add(by.get(bucket) ?? ZERO, r));
  }
  return [...by].map(([bucket, c]) => ({ bucket, ...c }));
}

const ratio = (n: number, d: number) => (d === 0 ? null : n / d);

/** palimpsest_get_target_activity: attempt counts of one target or all over a window, from the activity read model. */
export async function getTargetActivity(ctx: AppContext, input: TargetActivityInput) {
  let targetId: string | null = null;
  if (input.target_file_id != null) {
    const parsed = targetIdOf(input.target_file_id);
    if (parsed.error) return parsed.error;
    if (!(await targetExists(ctx.db, parsed.id))) return notFound(parsed.id);
    targetId = parsed.id;
  }
  const until = input.until ?? ctx.clock.now();
  if (Number.isNaN(Date.parse(until))) {
    return invalidArgument('invalid_until', 'until must be an ISO 8601 date and time, e.g. 2024-05-01T12:00:00Z.', { argument: 'until' });
  }
  const projection = await awaitProjection(ctx, activityProjection.name, input);
  const window = windowOf(until, input.window_minutes ?? ACTIVITY_DEFAULT_WINDOW_MINUTES);
  const query = { targetId, since: window.since, until: window.until };
  const [rows, series] = await Promise.all([activityGroups(ctx.db, query), activitySeries(ctx.db, query, window.granularity)]);
  const total = rows.reduce(add, ZERO);
  return {
    status: 'ok' as const,
    target_file_id: targetId,
    window,
    ...total,
    acceptance_rate: ratio(total.accepted, total.attempts),
    retries_per_acceptance: ratio(total.retries, total.accepted),
    by_failure_reason: [...grouped(rows.filter((r) => r.status === 'rejected'), 'failure_reason')].map(([failure_reason, c]) => ({ failure_reason, attempts: c.attempts })),
    by_source: [...grouped(rows, 'source')].map(([source, c]) => ({ source, ...c })),
    series: seriesOf(series),
    projection,
  };
}
