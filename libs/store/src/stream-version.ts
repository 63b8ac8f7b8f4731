import type { Sql } from './db';

/** The stream's last version: 0 when it has no events. One indexed lookup (the unique index). */
export async function currentStreamVersion(sql: Sql, streamId: string): Promise<number> {
  const { rows } = await sql.query<{ version: number }>(
    'SELECT coalesce(max(stream_version), 0) AS version FROM events WHERE stream_id = $1',
    [streamId],
  );
  return rows[0]!.version;
}
