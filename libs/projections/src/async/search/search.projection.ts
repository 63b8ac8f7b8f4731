import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import type { StoredEvent } from '@palimpsest/store/stored-event';
import type { AsyncProjection } from '../async-projection.port';
import { foldSearchDocument, isTargetEvent, type SearchDocument } from './search-document';

export { SEARCH_INTENT_CHARS } from './search-document';

/** Code points of a target's current text that are indexed (a tsvector must stay under 1 MB). */
export const SEARCH_BODY_CHARS = 200_000;

/**
 * Full-text search over each target, a function of the log: a batch folds into one row per target it
 * touches (the row's text changed by each acceptance's effects, its intents appended, its name and path
 * taken from the events), and the tsvector is recomputed once however many events touched the target.
 *
 * readAll's order is not always a stream's version order (a writer can take its transaction id before it
 * waits for the row lock), so an event is folded only on top of the version before it: a gap is filled
 * from the stream first, and an event already folded that way is skipped when readAll reaches it.
 */
export const searchProjection: AsyncProjection = {
  name: 'search',
  version: 3,
  tables: ['search_documents'],
  canHandle: isTargetEvent,
  async apply(tx: Sql, events: readonly StoredEvent[]): Promise<void> {
    const batch = events.filter(isTargetEvent);
    if (batch.length === 0) return;
    const docs = await readDocuments(tx, [...new Set(batch.map((e) => e.streamId))]);
    const changed = new Map<string, SearchDocument>();
    for (const e of batch) {
      const doc = await foldUpTo(tx, docs.get(e.streamId) ?? null, e);
      if (!doc) continue;
      docs.set(e.streamId, doc);
      changed.set(doc.target_id, doc);
    }
    if (changed.size > 0) await writeDocuments(tx, [...changed.values()]);
  },
};

/** `doc` brought up to `e` (filling a gap from the stream); unchanged when `e` was folded already. */
async function foldUpTo(tx: Sql, doc: SearchDocument | null, e: StoredEvent): Promise<SearchDocument | null> {
  const at = doc?.stream_version ?? 0;
  if (e.streamVersion <= at) return doc;
  const pending = e.streamVersion === at + 1 ? [e] : await readStream(tx, e.streamId, { fromVersion: at + 1, toVersion: e.streamVersion });
  let next = doc;
  for (const p of pending) next = foldSearchDocument(next, p);
  return next;
}

async function readDocuments(tx: Sql, streamIds: string[]): Promise<Map<string, SearchDocument>> {
  const { rows } = await tx.query<SearchDocument & { last_position: string | number; version: string | number; stream_version: string | number; updated_at: Date | string }>(
    `SELECT target_id::text AS target_id, filename, path, intents, body, version, stream_version, last_position, updated_at
       FROM search_documents WHERE 'target-' || target_id::text = ANY($1::text[])`,
    [streamIds],
  );
  return new Map(rows.map((r) => [`target-${r.target_id}`, {
    ...r,
    version: Number(r.version),
    stream_version: Number(r.stream_version),
    last_position: Number(r.last_position),
    updated_at: new Date(r.updated_at).toISOString(),
  }]));
}

async function writeDocuments(tx: Sql, docs: SearchDocument[]): Promise<void> {
  const column = <K extends keyof SearchDocument>(k: K) => docs.map((d) => d[k]);
  await tx.query(UPSERT, [
    column('target_id'), column('filename'), column('path'), column('intents'), column('body'),
    column('version'), column('stream_version'), column('last_position'), column('updated_at'), SEARCH_BODY_CHARS,
  ]);
}

/** Filenames are indexed whole and split at punctuation, so "main" finds src/main.ts. */
const NAME_WORDS = (column: string) => `${column} || ' ' || regexp_replace(${column}, '[^[:alnum:]]+', ' ', 'g')`;

const DOCUMENT = `
    setweight(to_tsvector('simple', ${NAME_WORDS('b.filename')} || ' ' || COALESCE(${NAME_WORDS('b.path')}, '')), 'A')
 || setweight(to_tsvector('english', ${NAME_WORDS('b.filename')} || ' ' || COALESCE(${NAME_WORDS('b.path')}, '')), 'A')
 || setweight(to_tsvector('english', b.intents), 'B')
 || setweight(to_tsvector('english', left(b.body, $10::int)), 'D')`;

const UPSERT = `
INSERT INTO search_documents AS d (target_id, filename, path, intents, body, body_truncated, version, stream_version, document, last_position, updated_at)
SELECT b.target_id, b.filename, b.path, b.intents, b.body, char_length(b.body) > $10::int, b.version, b.stream_version, ${DOCUMENT}, b.position, b.at
  FROM unnest($1::uuid[], $2::text[], $3::text[], $4::text[], $5::text[], $6::bigint[], $7::bigint[], $8::bigint[], $9::timestamptz[])
       AS b(target_id, filename, path, intents, body, version, stream_version, position, at)
ON CONFLICT (target_id) DO UPDATE SET
  filename = excluded.filename, path = excluded.path, intents = excluded.intents, body = excluded.body,
  body_truncated = excluded.body_truncated, version = excluded.version, stream_version = excluded.stream_version,
  document = excluded.document, last_position = excluded.last_position, updated_at = excluded.updated_at`;
