import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { diffTexts, type DiffHunk } from '@palimpsest/core/history/version-diff';
import { attemptsBetween } from '@palimpsest/projections/history/history.queries';
import type { AppContext } from '../../app-context';
import { notFound, targetIdOf, type NotFound } from '../../shared/target-lookup';
import { targetAsOf, type AsOfAnswer, type TargetAsOf } from '../as-of/text-as-of';

export interface DiffVersionsInput {
  target_file_id: unknown;
  from: unknown;
  to?: unknown;
  start_hunk?: number;
  max_chars?: number;
  attempts_limit?: number;
  after_sequence?: number;
}

export interface AttemptInBetween {
  attempt_id: string;
  status: 'accepted' | 'rejected';
  before_version: number;
  after_version: number | null;
  source: string;
  intent: string | null;
  log_sequence: number;
  created_at: string;
}

export interface DiffVersionsAnswer {
  status: 'ok';
  target_file_id: string;
  from: AsOfAnswer;
  to: AsOfAnswer;
  hunks: DiffHunk[];
  total_hunks: number;
  next_hunk: number | null;
  truncated: boolean;
  /** Attempts recorded after `from` was written, up to `to` (accepted and rejected), in log order. */
  attempts: AttemptInBetween[];
  /** Pass as after_sequence for the next attempts; null when they are all here. */
  attempts_next: number | null;
}

const DEFAULT_ATTEMPTS = 50;
const MAX_ATTEMPTS = 200;

/** One side of the diff: a point, or the current version (a point too, so both sides say what they read). */
async function side(ctx: AppContext, id: string, asOf: unknown): Promise<TargetAsOf | InvalidArgument | NotFound> {
  let found = await targetAsOf(ctx, id, asOf);
  if (found.kind === 'current') found = await targetAsOf(ctx, id, { version: found.row.version });
  if (found.kind === 'missing') return notFound(id);
  if (found.kind === 'refused') return { ...found.answer, target_file_id: id };
  if (found.kind !== 'as_of') throw new Error('a version point always reads as of');
  return found.value;
}

/**
 * palimpsest_diff_versions: the unified diff between the texts of two points of a target's history
 * (each folded from the log), a page of hunks at a time, and the attempts recorded between the two.
 */
export async function diffVersions(ctx: AppContext, input: DiffVersionsInput): Promise<DiffVersionsAnswer | InvalidArgument | NotFound> {
  const { id, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  const from = await side(ctx, id, input.from);
  if ('status' in from) return from;
  const to = await side(ctx, id, input.to ?? null);
  if ('status' in to) return to;
  const page = diffTexts(from.row.content, to.row.content, input.start_hunk ?? 0, input.max_chars);
  const limit = Math.min(input.attempts_limit ?? DEFAULT_ATTEMPTS, MAX_ATTEMPTS);
  const [low, high] = [from.as_of.log_sequence, to.as_of.log_sequence].sort((a, b) => a - b) as [number, number];
  const rows = limit === 0 ? [] : await attemptsBetween(ctx.db, id, low, high, input.after_sequence ?? null, limit + 1);
  const more = rows.length > limit;
  const attempts = rows.slice(0, limit).map((r) => ({ ...r, created_at: new Date(r.created_at).toISOString() }));
  return {
    status: 'ok',
    target_file_id: id,
    from: from.as_of,
    to: to.as_of,
    ...page,
    attempts,
    attempts_next: more ? attempts[attempts.length - 1]!.log_sequence : null,
  };
}
