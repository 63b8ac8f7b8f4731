import type { Sql } from '@palimpsest/store/db';
import type { SqlParams } from '../sql-params';
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
  before: { text: string; params: unknown[] }[];
  /** Joined into the event's single projection statement. */
  inline: string[];
}

/**
 * A rewrite that keeps the chunk count is one UPDATE (the common case: an edit inside one chunk).
 * One that changes it deletes the old run, shifts the later chunks and inserts the new run.
 */
export function contentStatements(p: SqlParams, targetId: string, rewrite: ChunkRewrite | null): ContentStatements {
  if (!rewrite) return { before: [], inline: [] };
  if (rewrite.same && rewrite.insert.length === rewrite.deleteCount) return changedChunks(p, targetId, rewrite);
  const { from, deleteCount, insert } = rewrite;
  const indexes = insert.map((_, i) => from + i);
  if (insert.length === 1 && deleteCount === 1) {
    // The common edit, one chunk rewritten in place: a plain index update plans and runs cheaper than the join below.
    return {
      before: [],
      inline: [`UPDATE target_chunks SET body = ${p.add(insert[0])}::text WHERE target_id = ${p.add(targetId)}::uuid AND chunk_index = ${p.add(from)}::int`],
    };
  }
  if (insert.length === deleteCount) return { before: [], inline: [updateChunks(p, targetId, indexes, insert)] };
  const delta = insert.length - deleteCount;
  const before = [
    {
      text: 'DELETE FROM target_chunks WHERE target_id = $1 AND chunk_index >= $2 AND chunk_index < $3',
      params: [targetId, from, from + deleteCount],
    },
    {
      text: 'UPDATE target_chunks SET chunk_index = chunk_index + $3 WHERE target_id = $1 AND chunk_index >= $2',
      params: [targetId, from + deleteCount, delta],
    },
  ];
  const inline = insert.length
    ? [
        `INSERT INTO target_chunks (target_id, chunk_index, body)
         SELECT ${p.add(targetId)}::uuid, x.i, x.body FROM unnest(${p.add(indexes)}::int[], ${p.add(insert)}::text[]) AS x(i, body)`,
      ]
    : [];
  return { before, inline };
}

function updateChunks(p: SqlParams, targetId: string, indexes: number[], bodies: string[]): string {
  return `UPDATE target_chunks SET body = x.body
            FROM unnest(${p.add(indexes)}::int[], ${p.add(bodies)}::text[]) AS x(i, body)
           WHERE target_chunks.target_id = ${p.add(targetId)} AND target_chunks.chunk_index = x.i`;
}

/** A run that keeps its chunk count: only the chunks that are not already there are written. */
function changedChunks(p: SqlParams, targetId: string, rewrite: ChunkRewrite): ContentStatements {
  const changed = rewrite.insert.flatMap((body, i) => (rewrite.same![i] ? [] : [{ index: rewrite.from + i, body }]));
  if (changed.length === 0) return { before: [], inline: [] };
  if (changed.length === 1) {
    const [{ index, body }] = changed as [{ index: number; body: string }];
    return contentStatements(p, targetId, { from: index, deleteCount: 1, insert: [body] });
  }
  return { before: [], inline: [updateChunks(p, targetId, changed.map((c) => c.index), changed.map((c) => c.body))] };
}
