import type { BundleObservedData, ObservationBase, ObservedScope, ProposalAcceptedData, ScopeObservedData } from '@palimpsest/core/target/target.events';
import { contentLink, OBSERVED_PROFILE } from '@palimpsest/core/transaction/observed-scope';
import { batchContentLinks, OBSERVED_BATCH_PROFILE } from '@palimpsest/core/transaction/observed-batch';
import type { SqlParams } from './sql-params';

export const OBSERVATION_TABLES = ['scope_observations', 'observation_bundles'] as const;

function scopeValues(p: SqlParams, base: ObservationBase, scope: ObservedScope, bundle: { id: string; ordinal: number } | null, position: string): string {
  return `(${p.add(scope.observation_id)}::uuid, ${p.add(base.target_id)}::uuid, ${p.add(base.editing_cycle_id)}::uuid, ${p.add(base.target_version)}::bigint,
    ${p.add(base.target_hash)}::text, ${p.add(base.language)}::text, ${p.add(base.engine)}::text, ${p.add(scope.selector.symbol_name)}::text, ${p.add(scope.selector.kind)}::text,
    ${p.add(scope.symbol.name)}::text, ${p.add(scope.symbol.kind)}::text, ${p.add(scope.symbol.parent)}::text, ${p.add(scope.scope_start)}::integer, ${p.add(scope.scope_end)}::integer,
    ${p.add(scope.observed_scope_hash)}::text, ${p.add(bundle?.id ?? null)}::uuid, ${p.add(bundle?.ordinal ?? null)}::integer, ${position}, ${p.add(base.observed_at)}::timestamptz)`;
}

const SCOPE_COLUMNS = `observation_id, target_id, editing_cycle_id, target_version, target_hash, language, engine, selector_name,
  selector_kind, symbol_name, symbol_kind, symbol_parent, scope_start, scope_end, observed_scope_hash, bundle_id, ordinal, log_sequence, observed_at`;

/** The scope_observations row of a ScopeObserved event. */
export function insertScopeObservationSql(p: SqlParams, d: ScopeObservedData, position: string): string {
  return `INSERT INTO scope_observations (${SCOPE_COLUMNS}) VALUES ${scopeValues(p, d, d, null, position)}`;
}

/** A BundleObserved event: its bundle row, then one scope row per ordinal (the bundle row must exist first). */
export function insertBundleSql(p: SqlParams, d: BundleObservedData, position: string): string {
  return `INSERT INTO observation_bundles (bundle_id, target_id, editing_cycle_id, target_version, target_hash, language, engine,
      scope_count, log_sequence, observed_at)
    VALUES (${p.add(d.bundle_id)}, ${p.add(d.target_id)}, ${p.add(d.editing_cycle_id)}, ${p.add(d.target_version)}, ${p.add(d.target_hash)},
      ${p.add(d.language)}, ${p.add(d.engine)}, ${p.add(d.scopes.length)}, ${position}, ${p.add(d.observed_at)})`;
}

export function insertBundleScopesSql(p: SqlParams, d: BundleObservedData, position: string): string {
  const rows = d.scopes.map((s) => scopeValues(p, d, s, { id: d.bundle_id, ordinal: s.ordinal }, position));
  return `INSERT INTO scope_observations (${SCOPE_COLUMNS}) VALUES ${rows.join(',\n')}`;
}

/**
 * An accepted observed submission consumes its observation, in the same append: the observation id is the
 * one its record links (the decider found it unconsumed under the row lock). Null for any other acceptance.
 */
export function consumeObservationSql(p: SqlParams, d: ProposalAcceptedData, position: string): string | null {
  const ids = consumedIds(d);
  if (!ids) return null;
  return `UPDATE scope_observations SET consumed_attempt_id = ${p.add(d.attempt_id)}::uuid, consumed_log_sequence = ${position}
    WHERE observation_id = ANY(${p.add(ids)}::uuid[])`;
}

/** The observations an acceptance consumes: its one link, or every group's of a batch; null for an unobserved one. */
function consumedIds(d: ProposalAcceptedData): string[] | null {
  if (d.runtime_version === OBSERVED_PROFILE.runtime) {
    const link = contentLink(d.content);
    if (!link) throw new Error(`observed acceptance ${d.attempt_id} carries no observation link`);
    return [link.observation_id];
  }
  if (d.runtime_version !== OBSERVED_BATCH_PROFILE.runtime) return null;
  const batch = batchContentLinks(d.content);
  if (!batch) throw new Error(`observed batch ${d.attempt_id} carries no complete group links`);
  return batch.links.map((l) => l.observation_id);
}
