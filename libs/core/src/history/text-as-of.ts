import { invalidArgument, ok, refuse, type Checked } from '../errors/invalid-argument';
import { ChunkedText } from '../text/chunked-text';
import { effectsFit, spliceEffects, type TextEffect } from '../transaction/text-effect';

/** Every how many versions a copy of the text is kept, so an as-of read folds fewer effects than this. */
export const HISTORY_SNAPSHOT_EVERY = 64;

/** A point in a target's history: a version, a global log position, or a time (the last version at or before each). */
export type AsOf = { version: number } | { position: number } | { time: string };

const RFC3339 = /^\d{4}-\d{2}-\d{2}[Tt ]\d{2}:\d{2}:\d{2}(\.\d+)?([Zz]|[+-]\d{2}:\d{2})$/;

const isCount = (v: unknown): v is number => typeof v === 'number' && Number.isSafeInteger(v) && v >= 0;

/** The as_of argument, checked (undefined and null: the current version). */
export function parseAsOf(value: unknown, argument = 'as_of'): Checked<AsOf | null> {
  if (value === undefined || value === null) return ok(null);
  const bad = (detail: string) => refuse<AsOf | null>(invalidArgument('invalid_as_of', `${argument} ${detail}`, { argument }));
  if (typeof value !== 'object' || Array.isArray(value)) return bad('must be an object: { "version": n }, { "position": p } or { "time": RFC 3339 }.');
  const keys = Object.keys(value);
  if (keys.length !== 1) return bad('names exactly one of version, position or time.');
  const v = value as Record<string, unknown>;
  if ('version' in v) return isCount(v.version) ? ok({ version: v.version }) : bad('version must be an integer ≥ 0.');
  if ('position' in v) return isCount(v.position) ? ok({ position: v.position }) : bad('position must be an integer ≥ 0.');
  if ('time' in v) {
    const t = v.time;
    if (typeof t !== 'string' || !RFC3339.test(t) || Number.isNaN(Date.parse(t))) return bad('time must be an RFC 3339 timestamp (2026-01-31T12:00:00Z).');
    return ok({ time: new Date(Date.parse(t)).toISOString() });
  }
  return bad('names exactly one of version, position or time.');
}

/** One acceptance on the way: the version it made, its recorded after-hash and its effects on the text before it. */
export interface HistoryStep {
  version: number;
  after_hash: string;
  /** Or, for an acceptance recorded before effects were, how to derive them from the text before it. */
  effects: readonly TextEffect[] | ((preimage: string) => readonly TextEffect[]);
}

/** The recorded effects do not lead to the recorded text: the log and its history disagree (never expected). */
export class HistoryDivergence extends Error {
  constructor(readonly version: number, detail: string) {
    super(`history of version ${version} diverges: ${detail}`);
  }
}

/**
 * The text at the last step's version: `base` (the text at the version before the first step) with each
 * step's effects applied in order, spliced into chunks so a step costs its delta. The result's SHA-256 must
 * equal the last step's recorded after-hash (the answer proves itself). No steps: `base` as it is.
 */
export function foldHistory(base: string, steps: readonly HistoryStep[]): string {
  if (steps.length === 0) return base;
  const text = ChunkedText.of(base);
  for (const step of steps) {
    const effects = typeof step.effects === 'function' ? step.effects(text.toString()) : step.effects;
    if (!effectsFit(effects, text.length)) throw new HistoryDivergence(step.version, 'the recorded effects do not fit the text they apply to');
    spliceEffects(text, effects, () => true);
  }
  const last = steps[steps.length - 1]!;
  if (text.sha256() !== last.after_hash) throw new HistoryDivergence(last.version, 'the folded text does not hash to the recorded after_hash');
  return text.toString();
}
