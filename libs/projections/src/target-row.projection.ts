import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import type { SqlParams } from './sql-params';

export function insertTargetSql(p: SqlParams, t: ExistingTarget, streamVersion: number, position: string, at: string) {
  return `INSERT INTO targets (target_id, filename, content_type, project_id, version, current_hash,
      active_editing_cycle_id, source_line_endings, stream_version, last_position, created_at, updated_at)
    VALUES (${p.add(t.target_id)}, ${p.add(t.filename)}, ${p.add(t.content_type)}, ${p.add(t.project_id)},
      ${p.add(t.version)}, ${p.add(t.current_hash)}, ${p.add(t.active_editing_cycle_id)},
      ${p.json(t.source_line_endings)}, ${p.add(streamVersion)}, ${position}, ${p.add(at)}, ${p.add(at)})`;
}

/** Version and hash move only on acceptance; the text itself lives in target_chunks. */
export function updateTargetSql(
  p: SqlParams,
  t: ExistingTarget,
  streamVersion: number,
  position: string,
  at: string,
  contentChanged: boolean,
) {
  const content = contentChanged
    ? `version = ${p.add(t.version)}, current_hash = ${p.add(t.current_hash)},`
    : '';
  return `UPDATE targets SET ${content} active_editing_cycle_id = ${p.add(t.active_editing_cycle_id)},
      stream_version = ${p.add(streamVersion)}, last_position = ${position}, updated_at = ${p.add(at)}
    WHERE target_id = ${p.add(t.target_id)}`;
}
