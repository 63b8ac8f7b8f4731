import type { Sql } from '@palimpsest/store/db';
import { SEARCH_BODY_CHARS } from './search.projection';

/** Reads of the `search` read model (written by search.projection.ts). */

export interface SearchHitRow {
  target_id: string;
  filename: string;
  path: string | null;
  version: number;
  rank: number;
  snippet: string;
  body_truncated: boolean;
  last_position: number;
}

export interface SearchPageQuery {
  query: string;
  /** Rows to fetch (the caller asks one more than its page to learn whether another follows). */
  rows: number;
  offset: number;
  /** Code points of the snippet at most. */
  snippetChars: number;
}

/** Marks around each matched word in a snippet, and between its fragments. */
export const SNIPPET_START = '[[';
export const SNIPPET_STOP = ']]';
const HEADLINE_OPTIONS = `StartSel="${SNIPPET_START}", StopSel="${SNIPPET_STOP}", MaxFragments=2, MaxWords=20, MinWords=8, FragmentDelimiter=" … "`;

const QUERY = `websearch_to_tsquery('english', $1::text)`;

/**
 * One page of the targets the query matches, best first (ts_rank normalized by document length, then
 * target id, so pages are stable while nothing changes). Snippets are computed for the page only.
 */
export async function searchPage(sql: Sql, q: SearchPageQuery): Promise<SearchHitRow[]> {
  const { rows } = await sql.query<SearchHitRow>(
    `SELECT p.target_id::text AS target_id, p.filename, p.path, p.version, p.rank, p.body_truncated, p.last_position,
            left(ts_headline('english', left(p.body, $6::int), ${QUERY}, $5::text), $4::int) AS snippet
       FROM (SELECT d.*, ts_rank(d.document, ${QUERY}, 1)::float8 AS rank
               FROM search_documents d
              WHERE d.document @@ ${QUERY}
              ORDER BY rank DESC, d.target_id
              LIMIT $2::int OFFSET $3::int) p
      ORDER BY p.rank DESC, p.target_id`,
    [q.query, q.rows, q.offset, q.snippetChars, HEADLINE_OPTIONS, SEARCH_BODY_CHARS],
  );
  return rows.map((r) => ({ ...r, rank: Number(r.rank) }));
}

/** How many targets the query matches, over every page. */
export async function searchTotal(sql: Sql, query: string): Promise<number> {
  const { rows } = await sql.query<{ n: number }>(`SELECT count(*)::int AS n FROM search_documents WHERE document @@ ${QUERY}`, [query]);
  return Number(rows[0]?.n ?? 0);
}
