import { BUNDLE_FORMAT, type AuditBundle, type BundleEvent } from '@palimpsest/core/audit/audit-bundle';
import { inCanonicalMemberOrder } from '@palimpsest/core/audit/canonical-payload';
import { consistencyPath, inclusionPath, type NodeLookup } from '@palimpsest/core/audit/merkle-nodes';
import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere, recordedAtIso, type EventRow } from '@palimpsest/store/stored-event';
import { checkpoints, fromStoredNodes, leafHashes, type StoredProof } from './audit-proofs.queries';

/**
 * A verification bundle of the store as it is (`palimpsest export`, and `palimpsest verify` on a live
 * store): the events of the whole log, or of whole streams, each with its chain link and leaf index,
 * every signed checkpoint with the consistency proofs between successive ones, and for a bundle of
 * streams an inclusion proof per event (the whole log proves itself: its leaves make the root).
 */
export async function exportAuditBundle(sql: Sql, verifierKey: string, streams: string[] | null): Promise<AuditBundle> {
  const { rows } = await sql.query<Row>(
    `SELECT e.global_position, e.stream_id, e.stream_version, e.event_type, e.schema_version, e.data, e.metadata, e.recorded_at,
            encode(e.chain_hash, 'hex') AS chain_hash, l.leaf_index
     FROM ${everyEventWhere('$1::text[] IS NULL OR stream_id = ANY($1::text[])')} e LEFT JOIN audit_leaves l ON l.global_position = e.global_position
     ORDER BY l.leaf_index NULLS LAST, e.global_position`,
    [streams],
  );
  const events: BundleEvent[] = rows.map((row) => ({
    global_position: row.global_position,
    stream_id: row.stream_id,
    stream_version: row.stream_version,
    type: row.event_type,
    schema_version: row.schema_version,
    // In canonical member order, as the digest covers them: the verifier's encoder then sorts nothing.
    data: inCanonicalMemberOrder(row.data),
    metadata: inCanonicalMemberOrder(row.metadata),
    recorded_at: recordedAtIso(row.recorded_at),
    chain_hash: row.chain_hash,
    leaf_index: row.leaf_index,
  }));
  const signed = await checkpoints(sql);
  const latest = signed.at(-1);
  // The whole log carries its leaves (they make the root); a bundle of streams carries a proof per event.
  const leaves = latest && !streams ? await leafHashes(sql, latest.size) : [];
  const hex = (list: Buffer[]) => list.map((h) => h.toString('hex'));
  const steps = signed.slice(1).flatMap((c, i) => (c.size > signed[i]!.size ? [{ first_size: signed[i]!.size, second_size: c.size }] : []));
  const covered = streams && latest ? events.filter((e) => e.leaf_index !== null && e.leaf_index < latest.size) : [];
  const proofs: StoredProof[] = [
    ...steps.map((step) => (node: NodeLookup) => consistencyPath(step.first_size, step.second_size, node)),
    ...covered.map((e) => (node: NodeLookup) => inclusionPath(e.leaf_index!, latest!.size, node)),
  ];
  const made = await fromStoredNodes(sql, proofs);
  const consistency = steps.map((step, i) => ({ ...step, proof: hex(made[i]!) }));
  const inclusion = covered.map((e, i) => ({ global_position: e.global_position, tree_size: latest!.size, path: hex(made[steps.length + i]!) }));
  return {
    format: BUNDLE_FORMAT,
    verifier_key: verifierKey,
    scope: streams ? { kind: 'streams', streams } : { kind: 'log' },
    events,
    checkpoints: signed.map((c) => ({ note: c.note, global_position: c.global_position })),
    consistency,
    inclusion,
    ...(streams ? {} : { leaves: hex(leaves) }),
  };
}

type Row = EventRow & { chain_hash: string; leaf_index: number | null };
