import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { isUuid } from '@palimpsest/core/target/request-identity';
import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import type { Sql } from '@palimpsest/store/db';

export interface NotFound {
  status: 'not_found';
  code: 'target_not_found';
  target_file_id: string;
  failure_detail: string;
  [extra: string]: unknown;
}

export function notFound(targetId: string): NotFound {
  return {
    status: 'not_found',
    code: 'target_not_found',
    target_file_id: targetId,
    failure_detail: `No target with id ${targetId}. Create one with palimpsest_initialize_target.`,
  };
}

/** A malformed target id is refused before any query (no row, no event). */
export function checkTargetId(value: unknown): InvalidArgument | null {
  if (isUuid(value)) return null;
  return invalidArgument('invalid_target_file_id', 'target_file_id must be a UUID (8-4-4-4-12 hexadecimal).', {
    argument: 'target_file_id',
  });
}

export interface TargetRow extends ExistingTarget {
  stream_version: number;
  last_position: number;
}

const COLUMNS = `target_id::text AS target_id, filename, content_type, project_id::text AS project_id, content, version,
  current_hash, active_editing_cycle_id::text AS active_editing_cycle_id, source_line_endings, stream_version, last_position`;

export function toTargetRow(row: Record<string, unknown>): TargetRow {
  return { exists: true, ...(row as Omit<TargetRow, 'exists'>) };
}

/** One coherent observation of a target row (no lock). */
export async function readTargetRow(sql: Sql, targetId: string): Promise<TargetRow | null> {
  const { rows } = await sql.query(`SELECT ${COLUMNS} FROM targets WHERE target_id = $1`, [targetId]);
  return rows.length ? toTargetRow(rows[0]) : null;
}

export const TARGET_COLUMNS = COLUMNS;
