import { CodePointIndex, codePointLength } from '../text/code-points';
import type { ResolvedOperation } from './candidate.events';

/**
 * The changed spans of one target, tracked from the operations themselves rather than guessed by a
 * diff: each operation's written range is carried through the later ones, overlapping or touching
 * ranges merge, and each surviving range is one change with its text before and after and the
 * operations that asked for it. Spans whose text ends up equal to the base drop out.
 */

export interface OperationRef {
  candidate_version: number;
  index: number;
}

export interface SemanticChange {
  change: 'added' | 'removed' | 'modified';
  base_start: number;
  base_end: number;
  result_start: number;
  result_end: number;
  before: string;
  after: string;
  before_truncated: boolean;
  after_truncated: boolean;
  operations: OperationRef[];
  /** False when the text differs from what the operations supplied (the engine normalized line endings). */
  expected: boolean;
}

interface Region {
  start: number;
  end: number;
  growth: number;
  ops: ResolvedOperation[];
}

export const SEMANTIC_TEXT_LIMIT = 4096;

function track(operations: readonly ResolvedOperation[]): Region[] {
  let regions: Region[] = [];
  for (const op of operations) {
    const written = codePointLength(op.replace);
    const delta = written - (op.end - op.start);
    const merged: Region = { start: op.start, end: op.start + written, growth: delta, ops: [op] };
    const next: Region[] = [];
    for (const r of regions) {
      if (r.end < op.start) next.push(r);
      else if (r.start > op.end) next.push({ ...r, start: r.start + delta, end: r.end + delta });
      else {
        merged.start = Math.min(merged.start, r.start);
        merged.end = Math.max(merged.end, r.end > op.end ? r.end + delta : merged.end);
        merged.growth += r.growth;
        merged.ops = [...r.ops, ...merged.ops];
      }
    }
    next.push(merged);
    regions = next.sort((a, b) => a.start - b.start);
  }
  return regions;
}

function bounded(text: string, limit: number): { text: string; truncated: boolean } {
  const cps = Array.from(text);
  return cps.length <= limit ? { text, truncated: false } : { text: cps.slice(0, limit).join(''), truncated: true };
}

/** Drop the code points both sides share at either end, so a change shows only what differs. */
function trim(before: string[], after: string[]): { head: number; tail: number } {
  let head = 0;
  while (head < before.length && head < after.length && before[head] === after[head]) head++;
  let tail = 0;
  while (tail < before.length - head && tail < after.length - head && before[before.length - 1 - tail] === after[after.length - 1 - tail]) tail++;
  return { head, tail };
}

export function semanticChanges(
  base: string,
  result: string,
  operations: readonly ResolvedOperation[],
  normalized: (ref: OperationRef) => boolean = () => false,
  limit = SEMANTIC_TEXT_LIMIT,
): SemanticChange[] {
  const baseIndex = new CodePointIndex(base);
  const resultIndex = new CodePointIndex(result);
  const changes: SemanticChange[] = [];
  let shift = 0;
  for (const r of track(operations)) {
    const baseStart = r.start - shift;
    const baseEnd = baseStart + (r.end - r.start) - r.growth;
    shift += r.growth;
    const before = Array.from(baseIndex.slice(baseStart, baseEnd));
    const after = Array.from(resultIndex.slice(r.start, r.end));
    const { head, tail } = trim(before, after);
    if (head === before.length && head === after.length) continue;
    const b = bounded(before.slice(head, before.length - tail).join(''), limit);
    const a = bounded(after.slice(head, after.length - tail).join(''), limit);
    const refs = r.ops.map((op) => ({ candidate_version: op.candidate_version, index: op.index }));
    changes.push({
      change: b.text === '' && !b.truncated ? 'added' : a.text === '' && !a.truncated ? 'removed' : 'modified',
      base_start: baseStart + head,
      base_end: baseEnd - tail,
      result_start: r.start + head,
      result_end: r.end - tail,
      before: b.text,
      after: a.text,
      before_truncated: b.truncated,
      after_truncated: a.truncated,
      operations: refs,
      expected: !refs.some(normalized),
    });
  }
  return changes;
}
