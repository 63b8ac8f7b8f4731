import { consistencyProof, inclusionProof } from '@palimpsest/core/audit/merkle-log';
import type { Sql } from '@palimpsest/store/db';
import { AUDIT_STREAM, CHECKPOINT_EVENT, type CheckpointEventData } from './audit-log.reactor';

/**
 * Proofs of the Merkle log, from its stored leaves. Each proof reads the leaf hashes of the tree it is
 * about (32 bytes a leaf: 32 MB at a million events); the proof itself is ⌈log2 n⌉ hashes.
 */

export interface StoredCheckpoint extends CheckpointEventData {
  /** The checkpoint event's own position in the log. */
  global_position: number;
}

export interface EventProof {
  global_position: number;
  leaf_index: number;
  tree_size: number;
  /** Hex, as every hash here. */
  leaf_hash: string;
  path: string[];
  checkpoint: StoredCheckpoint;
}

export interface ConsistencyProof {
  first: StoredCheckpoint;
  second: StoredCheckpoint;
  proof: string[];
}

/** Every signed checkpoint, oldest first. */
export async function checkpoints(sql: Sql): Promise<StoredCheckpoint[]> {
  const { rows } = await sql.query<{ global_position: number; data: CheckpointEventData }>(
    `SELECT global_position, data FROM events WHERE stream_id = $1 AND event_type = $2 ORDER BY stream_version`,
    [AUDIT_STREAM, CHECKPOINT_EVENT],
  );
  return rows.map((row) => ({ ...row.data, global_position: row.global_position }));
}

/** The first checkpoint of `size`, or the latest when size is null. */
export async function checkpointOfSize(sql: Sql, size: number | null): Promise<StoredCheckpoint | null> {
  const all = await checkpoints(sql);
  return (size === null ? all.at(-1) : all.find((c) => c.size === size)) ?? null;
}

/** Where the event at `position` is in the log and its audit path to the checkpoint (latest by default); null when no checkpoint covers it yet. */
export async function proveEvent(sql: Sql, position: number, checkpointSize: number | null = null): Promise<EventProof | null> {
  const checkpoint = await checkpointOfSize(sql, checkpointSize);
  if (!checkpoint) return null;
  const { rows } = await sql.query<{ leaf_index: number; leaf_hash: string }>(
    `SELECT leaf_index, encode(leaf_hash, 'hex') AS leaf_hash FROM audit_leaves WHERE global_position = $1`,
    [position],
  );
  const leaf = rows[0];
  if (!leaf || leaf.leaf_index >= checkpoint.size) return null;
  const leaves = await leafHashes(sql, checkpoint.size);
  const path = inclusionProof(leaves, leaf.leaf_index, checkpoint.size).map((h) => h.toString('hex'));
  return { global_position: position, leaf_index: leaf.leaf_index, tree_size: checkpoint.size, leaf_hash: leaf.leaf_hash, path, checkpoint };
}

/** That the checkpoint of size `first` (by default the one before) is a prefix of the one of size `second` (latest by default). */
export async function proveConsistency(sql: Sql, first: number | null, second: number | null = null): Promise<ConsistencyProof | null> {
  const b = await checkpointOfSize(sql, second);
  // By default the checkpoint before the later one (the last smaller one).
  const a = first === null ? ((await checkpoints(sql)).filter((c) => b && c.size < b.size).at(-1) ?? null) : await checkpointOfSize(sql, first);
  if (!a || !b || a.size > b.size) return null;
  const proof = consistencyProof(await leafHashes(sql, b.size), a.size, b.size).map((h) => h.toString('hex'));
  return { first: a, second: b, proof };
}

/** The hashes of the first `size` leaves. */
export async function leafHashes(sql: Sql, size: number): Promise<Buffer[]> {
  const { rows } = await sql.query<{ h: string }>(`SELECT encode(leaf_hash, 'hex') AS h FROM audit_leaves WHERE leaf_index < $1 ORDER BY leaf_index`, [size]);
  if (rows.length !== size) throw new Error(`the Merkle log has ${rows.length} of the ${size} leaves its checkpoint counts`);
  return rows.map((row) => Buffer.from(row.h, 'hex'));
}
