import { TargetFold } from '@palimpsest/core/target/target-fold';
import { targetStreamId, upcastTargetEvent } from '@palimpsest/core/target/target.events';
import { textOf } from '@palimpsest/core/target/target.state';
import type { EffectStep } from '@palimpsest/core/rebase/effect-step';
import type { TextEffect } from '@palimpsest/core/transaction/text-effect';
import { acceptedEffectsOfTarget, type AcceptedEffectsRow } from '@palimpsest/projections/accepted-effects.queries';
import type { Sql } from '@palimpsest/store/db';
import { streamPages } from '@palimpsest/store/read-stream';

/** An acceptance with its effects, whichever schema version recorded it. */
export type AcceptedEffects = AcceptedEffectsRow & { effects: TextEffect[] };

/** How many acceptances one read of the log takes while walking a history. */
const PAGE = 500;

/**
 * The effects of acceptances recorded before effects were (schema version 1): derived once by folding
 * the stream up to the last of them (upcastTargetEvent runs their recorded runtime on each preimage).
 */
async function derivedEffects(sql: Sql, targetId: string, upTo: number): Promise<Map<string, TextEffect[]>> {
  const fold = new TargetFold();
  const out = new Map<string, TextEffect[]>();
  for await (const page of streamPages(sql, targetStreamId(targetId))) {
    for (const s of page) {
      const event = upcastTargetEvent(s.type, s.schemaVersion, s.data, () => textOf(fold.state));
      fold.apply(event);
      if (event.type === 'ProposalAccepted') {
        out.set(event.data.attempt_id, event.data.effects);
        if (event.data.after_version >= upTo) return out;
      }
    }
  }
  return out;
}

/** What withEffects needs of a row to find its effects. */
type EffectsOf = Pick<AcceptedEffectsRow, 'attempt_id' | 'target_id' | 'after_version' | 'effects'>;

/** Rows with their effects: version-2 rows as recorded, version-1 rows derived from the stream. */
export async function withEffects<R extends EffectsOf>(sql: Sql, rows: R[]): Promise<(R & { effects: TextEffect[] })[]> {
  const old = rows.filter((r) => r.effects === null);
  const derived = new Map<string, Map<string, TextEffect[]>>();
  for (const r of old) {
    if (!derived.has(r.target_id)) {
      const upTo = Math.max(...old.filter((o) => o.target_id === r.target_id).map((o) => o.after_version));
      derived.set(r.target_id, await derivedEffects(sql, r.target_id, upTo));
    }
  }
  return rows.map((r) => ({ ...r, effects: r.effects ?? derived.get(r.target_id)?.get(r.attempt_id) ?? [] }));
}

/** Every acceptance of a target after `fromVersion` (up to `toVersion` when given), oldest first, as effect steps. */
export async function effectStepsSince(sql: Sql, targetId: string, fromVersion: number, toVersion: number | null = null): Promise<AcceptedEffects[]> {
  const out: AcceptedEffects[] = [];
  for (let after = fromVersion; ; ) {
    const rows = await acceptedEffectsOfTarget(sql, targetId, { afterVersion: after, afterPosition: null, toVersion }, PAGE);
    out.push(...(await withEffects(sql, rows)));
    if (rows.length < PAGE) return out;
    after = rows[rows.length - 1]!.after_version;
  }
}

export const asStep = (r: Pick<AcceptedEffects, 'attempt_id' | 'after_version' | 'effects'>): EffectStep => ({ attempt_id: r.attempt_id, after_version: r.after_version, effects: r.effects });
