import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import { jsonb, raw, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

export function insertTargetSql(t: ExistingTarget, streamVersion: number, position: SqlFragment, at: string): SqlFragment {
  return sql`INSERT INTO targets (target_id, filename, content_type, project_id, version, current_hash,
      active_editing_cycle_id, source_line_endings, stream_version, last_position, created_at, updated_at)
    VALUES (${t.target_id}, ${t.filename}, ${t.content_type}, ${t.project_id},
      ${t.version}, ${t.current_hash}, ${t.active_editing_cycle_id},
      ${jsonb(t.source_line_endings)}, ${streamVersion}, ${position}, ${at}, ${at})`;
}

/** Version and hash move only on acceptance; the text itself lives in target_chunks. */
export function updateTargetSql(
  t: ExistingTarget,
  streamVersion: number,
  position: SqlFragment,
  at: string,
  contentChanged: boolean,
): SqlFragment {
  const content = contentChanged
    ? sql`version = ${t.version}, current_hash = ${t.current_hash},`
    : raw('');
  return sql`UPDATE targets SET ${content} active_editing_cycle_id = ${t.active_editing_cycle_id},
      stream_version = ${streamVersion}, last_position = ${position}, updated_at = ${at}
    WHERE target_id = ${t.target_id}`;
}
