import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import type { Sql } from '@palimpsest/store/db';
import type { ContentCache, TargetHead } from './content-cache';
import { loadChunks } from './target-content';

/** The target row (the write model the decider reads), with its text: read, or locked for a write. */
export interface TargetRow extends ExistingTarget {
  stream_version: number;
  last_position: number;
  /** The stored chunk layout of `content`. */
  chunks: string[];
}

/** The target row's columns but its text, as TargetHead names them. */
export const HEAD_COLUMNS = `target_id::text AS target_id, filename, content_type, project_id::text AS project_id, version,
  current_hash, active_editing_cycle_id::text AS active_editing_cycle_id, source_line_endings, stream_version, last_position`;

/**
 * Under the row lock: the text from the cache when (version, hash) match, else from its chunks. Only a
 * lock holder writes chunks, so a second statement here still sees the locked version's text.
 */
async function withContent(sql: Sql, meta: TargetHead, cache: ContentCache): Promise<TargetRow> {
  return cached(cache, meta) ?? remember(cache, meta, await loadChunks(sql, meta.target_id));
}

/** Every row read here is committed data, so it also becomes the cache's head for the target. */
function cached(cache: ContentCache, meta: TargetHead): TargetRow | null {
  const hit = cache.get(meta.target_id, meta.version, meta.current_hash);
  if (!hit) return null;
  cache.rememberHead(meta);
  return { exists: true, ...meta, content: hit.content, chunks: hit.chunks };
}

function remember(cache: ContentCache, meta: TargetHead, chunks: string[]): TargetRow {
  const content = chunks.join('');
  cache.set(meta.target_id, { version: meta.version, current_hash: meta.current_hash, chunks, content });
  cache.rememberHead(meta);
  return { exists: true, ...meta, content, chunks };
}

/**
 * One coherent observation of a target (no lock). On a cache miss the row and its chunks are read again
 * by ONE statement: two separate reads could pair one version's metadata with the next version's text.
 */
export async function readTargetRow(sql: Sql, targetId: string, cache: ContentCache): Promise<TargetRow | null> {
  const { rows } = await sql.query(`SELECT ${HEAD_COLUMNS} FROM targets WHERE target_id = $1`, [targetId]);
  if (!rows.length) return null;
  const hit = cached(cache, rows[0] as TargetHead);
  if (hit) return hit;
  const fresh = await sql.query(
    `SELECT ${HEAD_COLUMNS}, COALESCE((SELECT array_agg(c.body ORDER BY c.chunk_index) FROM target_chunks c
              WHERE c.target_id = targets.target_id), '{}') AS chunks
       FROM targets WHERE target_id = $1`,
    [targetId],
  );
  if (!fresh.rows.length) return null;
  const { chunks, ...observed } = fresh.rows[0] as TargetHead & { chunks: string[] };
  return remember(cache, observed, chunks);
}

/** The row a head read elsewhere names, when its text is in the cache (else null: read it with readTargetRow). */
export function cachedTargetRow(head: TargetHead, cache: ContentCache): TargetRow | null {
  return cached(cache, head);
}

/** The target under a row lock: writers to one target are serialized here. */
export async function lockTargetRow(tx: Sql, targetId: string, cache: ContentCache): Promise<TargetRow | null> {
  const { rows } = await tx.query(`SELECT ${HEAD_COLUMNS} FROM targets WHERE target_id = $1 FOR UPDATE`, [targetId]);
  return rows.length ? withContent(tx, rows[0] as TargetHead, cache) : null;
}

/** Version and hash of each of these targets (no lock, no text); an unknown id has no row. */
export async function targetHeads(sql: Sql, targetIds: string[]): Promise<{ target_id: string; version: number; current_hash: string }[]> {
  if (targetIds.length === 0) return [];
  const { rows } = await sql.query<{ target_id: string; version: number; current_hash: string }>(
    'SELECT target_id::text AS target_id, version, current_hash FROM targets WHERE target_id = ANY($1::uuid[])',
    [targetIds],
  );
  return rows;
}
