import { searchProjection } from '@palimpsest/projections/async/search/search.projection';
import { searchPage, searchTotal } from '@palimpsest/projections/async/search/search.queries';
import type { AppContext } from '../app-context';
import { awaitProjection, type FreshnessInput } from './projection-wait';

export const SEARCH_DEFAULT_LIMIT = 10;
export const SEARCH_MAX_LIMIT = 50;
/** Code points of a snippet at most. */
export const SEARCH_SNIPPET_CHARS = 300;

export interface SearchTargetsInput extends FreshnessInput {
  query: string;
  limit?: number | null;
  offset?: number | null;
}

/** palimpsest_search_targets: one ranked page of the search read model, with where that model stands. */
export async function searchTargets(ctx: AppContext, input: SearchTargetsInput) {
  const projection = await awaitProjection(ctx, searchProjection.name, input);
  const limit = Math.min(input.limit ?? SEARCH_DEFAULT_LIMIT, SEARCH_MAX_LIMIT);
  const offset = input.offset ?? 0;
  const rows = await searchPage(ctx.db, { query: input.query, rows: limit + 1, offset, snippetChars: SEARCH_SNIPPET_CHARS });
  const page = rows.slice(0, limit);
  const total = rows.length > limit || offset > 0 ? await searchTotal(ctx.db, input.query) : page.length;
  return {
    status: 'ok' as const,
    query: input.query,
    hits: page.map((r) => ({
      target_file_id: r.target_id,
      filename: r.filename,
      path: r.path,
      version: r.version,
      rank: r.rank,
      snippet: r.snippet,
      text_truncated: r.body_truncated,
    })),
    total,
    next_offset: rows.length > limit ? offset + limit : null,
    projection,
  };
}
