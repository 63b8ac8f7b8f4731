import { chainLink, eventDigest, GENESIS_LINK } from '@palimpsest/core/audit/event-chain';
import type { Tx } from './db';
import { recordedAtIso, type EventRow } from './stored-event';

/**
 * The step that runs right after migrations/0025_event_chain.sql, in its transaction and under the
 * migration lock: chains the events written before the chain existed (their digest is computed here,
 * from their canonical JSON, which SQL cannot write), then requires a chain_hash of every row (a CHECK).
 * The append-only trigger is disabled for the duration of this transaction only (ALTER TABLE holds the table's lock
 * until commit: no writer sees it off). Stream by stream, a page of events per statement.
 */
export async function chainExistingEvents(tx: Tx, pageSize = 1000): Promise<number> {
  await tx.query('ALTER TABLE events DISABLE TRIGGER events_append_only');
  let chained = 0;
  let after = { streamId: '', version: 0 };
  let previous = GENESIS_LINK;
  for (;;) {
    const { rows } = await tx.query<EventRow>(
      `SELECT global_position, stream_id, stream_version, event_type, schema_version, data, metadata, recorded_at
       FROM events WHERE (stream_id, stream_version) > ($1::text, $2::bigint)
       ORDER BY stream_id, stream_version LIMIT $3::bigint`,
      [after.streamId, after.version, pageSize],
    );
    if (rows.length === 0) break;
    const positions: number[] = [];
    const links: string[] = [];
    for (const row of rows) {
      if (row.stream_version === 1) previous = GENESIS_LINK;
      const digest = eventDigest({
        streamId: row.stream_id,
        streamVersion: row.stream_version,
        type: row.event_type,
        schemaVersion: row.schema_version,
        data: row.data,
        metadata: row.metadata,
        recordedAt: recordedAtIso(row.recorded_at),
      });
      previous = chainLink(previous, digest);
      positions.push(row.global_position);
      links.push(previous);
    }
    await tx.query(
      `UPDATE events SET chain_hash = decode(l.link, 'hex')
       FROM unnest($1::bigint[], $2::text[]) AS l(position, link)
       WHERE events.global_position = l.position`,
      [positions, links],
    );
    chained += rows.length;
    const last = rows[rows.length - 1]!;
    after = { streamId: last.stream_id, version: last.stream_version };
  }
  await tx.query('ALTER TABLE events ENABLE TRIGGER events_append_only');
  // A CHECK, not NOT NULL: checked after the table's other constraints (by name), so they keep saying what they refuse.
  await tx.query('ALTER TABLE events ADD CONSTRAINT events_with_chain_hash CHECK (chain_hash IS NOT NULL AND octet_length(chain_hash) = 32)');
  return chained;
}
