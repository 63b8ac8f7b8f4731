import { activityTotals, type ActivityGroupRow } from '@palimpsest/projections/async/activity/activity.queries';
import type { Sql } from '@palimpsest/store/db';

export type { ActivityGroupRow };

/** Everything the activity read model has counted, over every target (what the gateway exports on /metrics). */
export function allTimeActivity(sql: Sql): Promise<ActivityGroupRow[]> {
  return activityTotals(sql);
}
