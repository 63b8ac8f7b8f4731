import type { Checked, InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { exportTarget, type ExportArgs } from '@palimpsest/core/reads/export-target';
import { findOccurrences, type FindOccurrencesArgs } from '@palimpsest/core/reads/find-occurrences';
import { readLines, type ReadLinesArgs } from '@palimpsest/core/reads/read-lines';
import { readTargetSlice, type ReadTargetArgs } from '@palimpsest/core/reads/read-target';
import type { AppContext } from '../app-context';
import { targetIdOf, notFound, type NotFound } from '../shared/target-lookup';
import { readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { workspaceBindingOf } from '@palimpsest/projections/workspace-files.queries';
import { targetAsOf, type AsOfAnswer } from '../history/as-of/text-as-of';

/** A read of the current text, or of the text as of a point (`as_of`: answered beside the read). */
interface AsOfInput {
  target_file_id: unknown;
  as_of?: unknown;
}

/**
 * Each read is one coherent observation of the target row: no lock, no write. As of a point, the row is
 * the one that version had (its text folded from the log) and the answer says which version that was.
 */
async function withTarget<R extends { status: string }>(
  ctx: AppContext,
  input: AsOfInput,
  read: (t: TargetRow) => R,
): Promise<R | (R & { as_of: AsOfAnswer }) | InvalidArgument | NotFound> {
  const { id, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  if (input.as_of === undefined || input.as_of === null) {
    const target = await readTargetRow(ctx.db, id, ctx.contents);
    return target ? read(target) : notFound(id);
  }
  const found = await targetAsOf(ctx, id, input.as_of);
  if (found.kind === 'missing') return notFound(id);
  if (found.kind === 'refused') return { ...found.answer, target_file_id: id };
  if (found.kind === 'current') return read(found.row);
  const answer = read(found.value.row);
  return answer.status === 'ok' ? { ...answer, as_of: found.value.as_of } : answer;
}

function observed<T extends object>(t: TargetRow, result: Checked<T>) {
  if (!result.ok) return { ...result.error, target_file_id: t.target_id };
  return { status: 'ok' as const, target_file_id: t.target_id, version: t.version, current_hash: t.current_hash, ...result.value };
}

/** The binding is written in the append that creates the target (its publication mode too) and never changes, so reading it apart stays coherent. */
export async function getTarget(ctx: AppContext, input: AsOfInput) {
  const { id, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const bound = await workspaceBindingOf(ctx.db, id);
  return withTarget(ctx, { ...input, target_file_id: id }, (t) => {
    return {
      status: 'ok' as const,
      target_file_id: t.target_id,
      filename: t.filename,
      target_type: t.content_type,
      current_content: t.content,
      current_hash: t.current_hash,
      version: t.version,
      active_editing_cycle_id: t.active_editing_cycle_id,
      source_line_endings: t.source_line_endings,
      workspace: bound ? { path: bound.path, source_sha256: bound.source_sha256, publish: bound.publish } : null,
    };
  });
}

export function exportTargetQuery(ctx: AppContext, input: AsOfInput & ExportArgs) {
  return withTarget(ctx, input, (t) => {
    const result = exportTarget(t.content, input, { source_line_endings: t.source_line_endings });
    if (!result.ok) return { ...result.error, target_file_id: t.target_id };
    return {
      status: 'ok' as const,
      target_file_id: t.target_id,
      filename: t.filename,
      content_type: t.content_type,
      target_type: t.content_type,
      version: t.version,
      hash: t.current_hash,
      current_hash: t.current_hash,
      ...result.value,
      source_line_endings: t.source_line_endings,
    };
  });
}

export function readTargetQuery(ctx: AppContext, input: AsOfInput & ReadTargetArgs) {
  return withTarget(ctx, input, (t) => observed(t, readTargetSlice(t.content, input)));
}

export function readLinesQuery(ctx: AppContext, input: AsOfInput & ReadLinesArgs) {
  return withTarget(ctx, input, (t) => observed(t, readLines(t.content, input)));
}

export function findOccurrencesQuery(ctx: AppContext, input: AsOfInput & FindOccurrencesArgs) {
  return withTarget(ctx, input, (t) => observed(t, findOccurrences(t.content, input)));
}
