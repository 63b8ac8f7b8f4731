import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { foldHistory, parseAsOf, type AsOf, type HistoryStep } from '@palimpsest/core/history/text-as-of';
import { upcastTargetEvent, type ProposalAcceptedData } from '@palimpsest/core/target/target.events';
import type { TextEffect } from '@palimpsest/core/transaction/text-effect';
import { readTargetRow, type TargetRow } from '@palimpsest/projections/content/target-row.queries';
import { initialText, snapshotAtOrBefore, stepsBetween, versionAt, type StoredStep, type VersionPoint } from '@palimpsest/projections/history/history.queries';
import type { AppContext } from '../../app-context';

/** What an as-of answer says of the version it read: its number, recorded after-hash, when and by what it was written. */
export interface AsOfAnswer {
  version: number;
  after_hash: string;
  written_at: string;
  log_sequence: number;
  attempt_id: string | null;
}

export function asOfAnswer(p: VersionPoint): AsOfAnswer {
  return { version: p.version, after_hash: p.after_hash, written_at: new Date(p.written_at).toISOString(), log_sequence: p.log_sequence, attempt_id: p.attempt_id };
}

/** The target's row as it was at a version: its text folded from the log, its version and hash those recorded then. */
export interface TargetAsOf {
  row: TargetRow;
  as_of: AsOfAnswer;
}

function stepOf(s: StoredStep): HistoryStep {
  const parsed: unknown = JSON.parse(s.payload);
  if (s.schema_version >= 2) return { version: s.version, after_hash: s.after_hash, effects: parsed as TextEffect[] };
  const effects = (preimage: string): readonly TextEffect[] => {
    const event = upcastTargetEvent('ProposalAccepted', s.schema_version, parsed, () => preimage);
    return (event.data as ProposalAcceptedData).effects;
  };
  return { version: s.version, after_hash: s.after_hash, effects };
}

/** The text at `version` of a target: the newest kept copy at or before it (or the creation's text), and the effects since. */
export async function foldTextAt(ctx: AppContext, targetId: string, version: number): Promise<string> {
  const snapshot = version > 0 ? await snapshotAtOrBefore(ctx.db, targetId, version) : null;
  const base = snapshot ?? { version: 0, body: (await initialText(ctx.db, targetId)) ?? '' };
  const steps = base.version < version ? await stepsBetween(ctx.db, targetId, base.version, version) : [];
  return foldHistory(base.body, steps.map(stepOf));
}

const outOfRange = (current: TargetRow, asOf: AsOf): InvalidArgument =>
  invalidArgument('as_of_out_of_range', `as_of ${JSON.stringify(asOf)} names no version of this target (versions 0..${current.version}; a position or time before its creation has none).`, {
    argument: 'as_of',
    current_version: current.version,
  });

export type AsOfLookup = { kind: 'current'; row: TargetRow } | { kind: 'as_of'; value: TargetAsOf } | { kind: 'refused'; answer: InvalidArgument } | { kind: 'missing' };

/**
 * A target read now or as of a point. The current version reads the row (and its cached text); an
 * earlier one folds the log's effects, and the answer carries the version's recorded hash and time.
 */
export async function targetAsOf(ctx: AppContext, targetId: string, rawAsOf: unknown): Promise<AsOfLookup> {
  const parsed = parseAsOf(rawAsOf);
  if (!parsed.ok) return { kind: 'refused', answer: parsed.error };
  const current = await readTargetRow(ctx.db, targetId, ctx.contents);
  if (!current) return { kind: 'missing' };
  const asOf = parsed.value;
  if (!asOf) return { kind: 'current', row: current };
  const point = await versionAt(ctx.db, targetId, asOf);
  if (!point) return { kind: 'refused', answer: outOfRange(current, asOf) };
  const same = point.version === current.version && point.after_hash === current.current_hash;
  const content = same ? current.content : await foldTextAt(ctx, targetId, point.version);
  const row: TargetRow = { ...current, content, chunks: [content], version: point.version, current_hash: point.after_hash };
  return { kind: 'as_of', value: { row, as_of: asOfAnswer(point) } };
}
