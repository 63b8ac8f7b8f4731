import type { Sql } from './db';

/** The stream's last version: 0 when it has no events; its archived head when all its events are archived. */
export async function currentStreamVersion(sql: Sql, streamId: string): Promise<number> {
  const { rows } = await sql.query<{ version: number }>(
    'SELECT coalesce(max(stream_version), (SELECT last_version FROM archived_streams WHERE stream_id = $1), 0) AS version FROM events WHERE stream_id = $1',
    [streamId],
  );
  return rows[0]!.version;
}
