import type { ObservationRow } from '@palimpsest/projections/observations.queries';
import type { TargetRow } from '@palimpsest/projections/content/target-row.queries';
import type { AppContext } from '../app-context';

/**
 * The scopes that still describe the locked state, checked against ONE outline of this version (cached):
 * a symbol with exactly the observed bounds, name and kind (equal version and hash mean equal text, so
 * the scope hash is equal with it). The others are refused before this matters.
 */
export async function reverifyAll(ctx: AppContext, target: TargetRow, rows: ObservationRow[]): Promise<Record<string, boolean>> {
  const current = rows.filter(
    (r) => r.target_id === target.target_id && r.target_version === target.version && r.target_hash === target.current_hash && r.editing_cycle_id === target.active_editing_cycle_id,
  );
  if (!current.length) return {};
  const language = ctx.outlines.engine.languageOf(target.filename, target.content_type);
  if (!language) return {};
  const outline = await ctx.outlines.outline(target, language);
  const key = (start: number, end: number, kind: string, name: string) => JSON.stringify([start, end, kind, name]);
  const named = new Set(outline.symbols.map((s) => key(s.start, s.end, s.kind, s.name)));
  return Object.fromEntries(current.map((r) => [r.observation_id, named.has(key(r.scope_start, r.scope_end, r.symbol_kind, r.symbol_name))]));
}
