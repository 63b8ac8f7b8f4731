import type { Sql } from '@palimpsest/store/db';
import { sql, type SqlFragment } from '@palimpsest/store/sql-fragment';
import type { ChunkRewrite } from './chunk-layout';

/** The chunks of one target, in order (an empty text has none). */
export async function loadChunks(sql: Sql, targetId: string): Promise<string[]> {
  const { rows } = await sql.query(
    'SELECT body FROM target_chunks WHERE target_id = $1 ORDER BY chunk_index',
    [targetId],
  );
  return rows.map((r: { body: string }) => r.body);
}

/** SQL expression for a target's whole text (for reads that need it assembled by the server). */
export const ASSEMBLED_CONTENT = (targetColumn: string) =>
  `COALESCE((SELECT string_agg(c.body, '' ORDER BY c.chunk_index) FROM target_chunks c WHERE c.target_id = ${targetColumn}), '')`;

export interface ContentStatements {
  /** Run first, each on its own (they shift chunk numbers). */
  before: SqlFragment[];
  /** Joined into the event's single projection statement. */
  inline: SqlFragment[];
}

/**
 * A rewrite that keeps the chunk count updates the chunks it changes: one plain UPDATE for one (the
 * common edit), one joined with the new bodies for several; the chunks a fold's splice marks `same` are
 * already stored and not written. One that changes the count deletes the old run, shifts the later chunks
 * and inserts the new run.
 */
export function contentStatements(targetId: string, rewrite: ChunkRewrite | null): ContentStatements {
  if (!rewrite) return { before: [], inline: [] };
  const { from, deleteCount, insert } = rewrite;
  if (insert.length === deleteCount) {
    const changed = insert.flatMap((body, i) => (rewrite.same?.[i] ? [] : [{ index: from + i, body }]));
    if (changed.length === 0) return { before: [], inline: [] };
    if (changed.length === 1) {
      // A plain index update plans and runs cheaper than the join below.
      const [{ index, body }] = changed as [{ index: number; body: string }];
      return {
        before: [],
        inline: [sql`UPDATE target_chunks SET body = ${body}::text WHERE target_id = ${targetId}::uuid AND chunk_index = ${index}::int`],
      };
    }
    return {
      before: [],
      inline: [
        sql`UPDATE target_chunks SET body = x.body
           FROM unnest(${changed.map((c) => c.index)}::int[], ${changed.map((c) => c.body)}::text[]) AS x(i, body)
          WHERE target_chunks.target_id = ${targetId} AND target_chunks.chunk_index = x.i`,
      ],
    };
  }
  const delta = insert.length - deleteCount;
  const before = [
    sql`DELETE FROM target_chunks WHERE target_id = ${targetId} AND chunk_index >= ${from} AND chunk_index < ${from + deleteCount}`,
    sql`UPDATE target_chunks SET chunk_index = chunk_index + ${delta} WHERE target_id = ${targetId} AND chunk_index >= ${from + deleteCount}`,
  ];
  return { before, inline: insert.length ? [insertChunksSql(targetId, from, insert)] : [] };
}

/** The chunks `bodies` stored at indexes `from`, `from + 1`, … (none taken yet). */
export function insertChunksSql(targetId: string, from: number, bodies: readonly string[]): SqlFragment {
  const indexes = bodies.map((_, i) => from + i);
  return sql`INSERT INTO target_chunks (target_id, chunk_index, body)
    SELECT ${targetId}::uuid, x.i, x.body FROM unnest(${indexes}::int[], ${bodies}::text[]) AS x(i, body)`;
}
