import type { BundleObservedData, ObservationBase, ObservedScope, ProposalAcceptedData, ScopeObservedData } from '@palimpsest/core/target/target.events';
import { contentLink, OBSERVED_PROFILE } from '@palimpsest/core/transaction/observed-scope';
import { batchContentLinks, OBSERVED_BATCH_PROFILE } from '@palimpsest/core/transaction/observed-batch';
import { joinSql, raw, sql, type SqlFragment } from '@palimpsest/store/sql-fragment';

export const OBSERVATION_TABLES = ['scope_observations', 'observation_bundles'] as const;

function scopeValues(base: ObservationBase, scope: ObservedScope, bundle: { id: string; ordinal: number } | null, position: SqlFragment): SqlFragment {
  return sql`(${scope.observation_id}::uuid, ${base.target_id}::uuid, ${base.editing_cycle_id}::uuid, ${base.target_version}::bigint,
    ${base.target_hash}::text, ${base.language}::text, ${base.engine}::text, ${scope.selector.symbol_name}::text, ${scope.selector.kind}::text,
    ${scope.symbol.name}::text, ${scope.symbol.kind}::text, ${scope.symbol.parent}::text, ${scope.scope_start}::integer, ${scope.scope_end}::integer,
    ${scope.observed_scope_hash}::text, ${bundle?.id ?? null}::uuid, ${bundle?.ordinal ?? null}::integer, ${position}, ${base.observed_at}::timestamptz)`;
}

const SCOPE_COLUMNS = raw(`observation_id, target_id, editing_cycle_id, target_version, target_hash, language, engine, selector_name,
  selector_kind, symbol_name, symbol_kind, symbol_parent, scope_start, scope_end, observed_scope_hash, bundle_id, ordinal, log_sequence, observed_at`);

/** The scope_observations row of a ScopeObserved event. */
export function insertScopeObservationSql(d: ScopeObservedData, position: SqlFragment): SqlFragment {
  return sql`INSERT INTO scope_observations (${SCOPE_COLUMNS}) VALUES ${scopeValues(d, d, null, position)}`;
}

/** A BundleObserved event: its bundle row, then one scope row per ordinal (the bundle row must exist first). */
export function insertBundleSql(d: BundleObservedData, position: SqlFragment): SqlFragment {
  return sql`INSERT INTO observation_bundles (bundle_id, target_id, editing_cycle_id, target_version, target_hash, language, engine,
      scope_count, log_sequence, observed_at)
    VALUES (${d.bundle_id}, ${d.target_id}, ${d.editing_cycle_id}, ${d.target_version}, ${d.target_hash},
      ${d.language}, ${d.engine}, ${d.scopes.length}, ${position}, ${d.observed_at})`;
}

export function insertBundleScopesSql(d: BundleObservedData, position: SqlFragment): SqlFragment {
  const rows = d.scopes.map((s) => scopeValues(d, s, { id: d.bundle_id, ordinal: s.ordinal }, position));
  return sql`INSERT INTO scope_observations (${SCOPE_COLUMNS}) VALUES ${joinSql(rows, ',\n')}`;
}

/**
 * An accepted observed submission consumes its observation, in the same append: the observation id is the
 * one its record links (the decider found it unconsumed under the row lock). Null for any other acceptance.
 */
export function consumeObservationSql(d: ProposalAcceptedData, position: SqlFragment): SqlFragment | null {
  const ids = consumedIds(d);
  if (!ids) return null;
  return sql`UPDATE scope_observations SET consumed_attempt_id = ${d.attempt_id}::uuid, consumed_log_sequence = ${position}
    WHERE observation_id = ANY(${ids}::uuid[])`;
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
