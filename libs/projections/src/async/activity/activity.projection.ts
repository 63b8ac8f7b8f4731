import type { Sql } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { AsyncProjection } from '../async-projection.port';

interface Count {
  targetId: string;
  bucket: string;
  status: 'accepted' | 'rejected';
  source: string;
  failureReason: string;
  attempts: number;
  retries: number;
}

const counted = (e: StoredEvent): boolean => e.type === 'ProposalAccepted' || e.type === 'ProposalRejected';

/**
 * Attempt counts per target and minute (and over everything), from ProposalAccepted and ProposalRejected:
 * the same events the inline attempt log records, so the counts match it. A batch is summed in memory
 * first, then added with one statement per table.
 */
export const activityProjection: AsyncProjection = {
  name: 'activity',
  version: 2,
  tables: ['activity_minutes', 'activity_totals'],
  canHandle: counted,
  async apply(tx: Sql, events: readonly StoredEvent[]): Promise<void> {
    const counts = countsOf(events);
    if (counts.length === 0) return;
    const column = <K extends keyof Count>(k: K) => counts.map((c) => c[k]);
    await tx.query(
      `INSERT INTO activity_minutes AS a (target_id, bucket, status, source, failure_reason, attempts, retries)
       SELECT * FROM unnest($1::uuid[], $2::timestamptz[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[])
       ON CONFLICT (target_id, bucket, status, source, failure_reason)
       DO UPDATE SET attempts = a.attempts + excluded.attempts, retries = a.retries + excluded.retries`,
      [column('targetId'), column('bucket'), column('status'), column('source'), column('failureReason'), column('attempts'), column('retries')],
    );
    await tx.query(
      `INSERT INTO activity_totals AS a (status, source, failure_reason, attempts, retries)
       SELECT status, source, failure_reason, sum(attempts), sum(retries)
         FROM unnest($1::text[], $2::text[], $3::text[], $4::bigint[], $5::bigint[]) AS x(status, source, failure_reason, attempts, retries)
        GROUP BY status, source, failure_reason
       ON CONFLICT (status, source, failure_reason)
       DO UPDATE SET attempts = a.attempts + excluded.attempts, retries = a.retries + excluded.retries`,
      [column('status'), column('source'), column('failureReason'), column('attempts'), column('retries')],
    );
  },
};

function countsOf(events: readonly StoredEvent[]): Count[] {
  const byKey = new Map<string, Count>();
  for (const e of events) {
    if (!counted(e)) continue;
    const status = e.type === 'ProposalAccepted' ? 'accepted' : 'rejected';
    const count: Count = {
      targetId: String(e.data.target_id),
      bucket: minuteOf(e.recordedAt),
      status,
      source: String(e.data.source),
      failureReason: status === 'rejected' ? String(e.data.failure_reason) : '',
      attempts: 0,
      retries: 0,
    };
    // jsonb text holds no NUL, so the fields joined by one are a unique key (JSON.stringify per event was a profile line).
    const key = `${count.targetId}\0${count.bucket}\0${count.status}\0${count.source}\0${count.failureReason}`;
    const into = byKey.get(key) ?? count;
    into.attempts += 1;
    if (e.data.parent_attempt_id) into.retries += 1;
    byKey.set(key, into);
  }
  return [...byKey.values()];
}

const ISO_UTC_MS = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{3}Z$/;

/** The UTC minute an ISO instant falls in, as ISO text (recordedAt is toISOString's: cut, not parsed). */
export function minuteOf(iso: string): string {
  if (ISO_UTC_MS.test(iso)) return `${iso.slice(0, 17)}00.000Z`;
  const t = new Date(iso);
  t.setUTCSeconds(0, 0);
  return t.toISOString();
}
