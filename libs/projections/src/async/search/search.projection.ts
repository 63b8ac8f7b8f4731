import type { Sql } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { AsyncProjection } from '../async-projection.port';

/** Code points of a target's current text that are indexed (a tsvector must stay under 1 MB). */
export const SEARCH_BODY_CHARS = 200_000;
/** Code points of accepted intents kept per target, the most recent ones. */
export const SEARCH_INTENT_CHARS = 16_384;

/** The events that change what a target's document holds: its text, name, binding or intents. */
const FOLLOWED = new Set(['TargetInitialized', 'ProposalAccepted', 'WorkspaceFileBound', 'WorkspaceFileRefreshed']);

interface Touched {
  position: number;
  recordedAt: string;
  intents: string[];
}

/**
 * Full-text search over each target. A batch folds into one row per target it touches: the row takes
 * the target's filename, path and text as the inline read models hold them when the batch applies (the
 * projection follows the log, so it is never behind them), appends the batch's accepted intents, and
 * recomputes the tsvector once however many events touched the target.
 */
export const searchProjection: AsyncProjection = {
  name: 'search',
  version: 1,
  tables: ['search_documents'],
  // filename, path, body, version and the document are the inline models' when the batch applied.
  comparable: { search_documents: ['target_id', 'intents', 'last_position', 'updated_at'] },
  async apply(tx: Sql, events: readonly StoredEvent[]): Promise<void> {
    const touched = touchedTargets(events);
    if (touched.size === 0) return;
    const ids = [...touched.keys()];
    const rows = [...touched.values()];
    await tx.query(UPSERT, [
      ids,
      rows.map((t) => t.intents.join('\n')),
      rows.map((t) => t.position),
      rows.map((t) => t.recordedAt),
      SEARCH_BODY_CHARS,
      SEARCH_INTENT_CHARS,
    ]);
    await tx.query(REINDEX, [ids]);
  },
};

function touchedTargets(events: readonly StoredEvent[]): Map<string, Touched> {
  const touched = new Map<string, Touched>();
  for (const e of events) {
    if (!FOLLOWED.has(e.type)) continue;
    const id = String(e.data.target_id);
    const t = touched.get(id) ?? { position: 0, recordedAt: e.recordedAt, intents: [] };
    if (e.globalPosition > t.position) {
      t.position = e.globalPosition;
      t.recordedAt = e.recordedAt;
    }
    if (e.type === 'ProposalAccepted' && typeof e.data.intent === 'string' && e.data.intent.trim() !== '') t.intents.push(e.data.intent);
    touched.set(id, t);
  }
  return touched;
}

/**
 * New rows and changed ones. The batch's intents are always appended: readAll's order is not always a
 * stream's version order (a writer can take its transaction id before it waits for the row lock), so a
 * batch can hold an earlier position than the row has, and its intents still belong in it, in log order.
 */
const UPSERT = `
INSERT INTO search_documents AS d (target_id, filename, path, intents, body, body_truncated, version, document, last_position, updated_at)
SELECT b.target_id, t.filename, w.path, right(b.intents, $6::int),
       left(x.text, $5::int), char_length(x.text) > $5::int,
       t.version, ''::tsvector, b.position, b.at
  FROM unnest($1::uuid[], $2::text[], $3::bigint[], $4::timestamptz[]) AS b(target_id, intents, position, at)
  JOIN targets t ON t.target_id = b.target_id
  LEFT JOIN workspace_files w ON w.target_id = b.target_id
  CROSS JOIN LATERAL (SELECT COALESCE(string_agg(c.body, '' ORDER BY c.chunk_index), '') AS text
                        FROM target_chunks c WHERE c.target_id = b.target_id) x
ON CONFLICT (target_id) DO UPDATE SET
  filename = excluded.filename, path = excluded.path,
  intents = right(CASE WHEN excluded.intents = '' THEN d.intents WHEN d.intents = '' THEN excluded.intents
                       ELSE d.intents || E'\\n' || excluded.intents END, $6::int),
  body = excluded.body, body_truncated = excluded.body_truncated, version = excluded.version,
  last_position = GREATEST(d.last_position, excluded.last_position),
  updated_at = CASE WHEN excluded.last_position > d.last_position THEN excluded.updated_at ELSE d.updated_at END`;

/** Filenames are indexed whole and split at punctuation, so "main" finds src/main.ts. */
const NAME_WORDS = (column: string) => `${column} || ' ' || regexp_replace(${column}, '[^[:alnum:]]+', ' ', 'g')`;

const REINDEX = `
UPDATE search_documents SET document =
    setweight(to_tsvector('simple', ${NAME_WORDS('filename')} || ' ' || COALESCE(${NAME_WORDS('path')}, '')), 'A')
 || setweight(to_tsvector('english', ${NAME_WORDS('filename')} || ' ' || COALESCE(${NAME_WORDS('path')}, '')), 'A')
 || setweight(to_tsvector('english', intents), 'B')
 || setweight(to_tsvector('english', body), 'D')
 WHERE target_id = ANY($1::uuid[])`;
