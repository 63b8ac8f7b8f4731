import { rootOf } from '@palimpsest/core/audit/merkle-log';
import { consistencyPath, inclusionPath, nodesOf, type NodeLookup, type NodeRef } from '@palimpsest/core/audit/merkle-nodes';
import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';
import { AUDIT_STREAM, CHECKPOINT_EVENT, STORED_NODE_LEVEL, type CheckpointEventData } from './audit-log.reactor';

/**
 * Proofs of the Merkle log, from its stored nodes (audit_nodes from level 4 up, audit_leaves for level 0,
 * the few levels between made from their leaves): a proof reads the O(log² n) perfect subtrees its hashes
 * are made of, found first (nodesOf) and read in two statements; the proof itself is ⌈log2 n⌉ hashes.
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
    `SELECT global_position, data FROM ${everyEventWhere('stream_id = $1 AND event_type = $2')} e ORDER BY stream_version`,
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
  const path = (await fromStoredNodes(sql, [(node) => inclusionPath(leaf.leaf_index, checkpoint.size, node)]))[0]!.map((h) => h.toString('hex'));
  return { global_position: position, leaf_index: leaf.leaf_index, tree_size: checkpoint.size, leaf_hash: leaf.leaf_hash, path, checkpoint };
}

/** That the checkpoint of size `first` (by default the one before) is a prefix of the one of size `second` (latest by default). */
export async function proveConsistency(sql: Sql, first: number | null, second: number | null = null): Promise<ConsistencyProof | null> {
  const b = await checkpointOfSize(sql, second);
  // By default the checkpoint before the later one (the last smaller one).
  const a = first === null ? ((await checkpoints(sql)).filter((c) => b && c.size < b.size).at(-1) ?? null) : await checkpointOfSize(sql, first);
  if (!a || !b || a.size > b.size) return null;
  const proof = (await fromStoredNodes(sql, [(node) => consistencyPath(a.size, b.size, node)]))[0]!.map((h) => h.toString('hex'));
  return { first: a, second: b, proof };
}

/** The hashes of the first `size` leaves. */
export async function leafHashes(sql: Sql, size: number): Promise<Buffer[]> {
  const { rows } = await sql.query<{ h: string }>(`SELECT encode(leaf_hash, 'hex') AS h FROM audit_leaves WHERE leaf_index < $1 ORDER BY leaf_index`, [size]);
  if (rows.length !== size) throw new Error(`the Merkle log has ${rows.length} of the ${size} leaves its checkpoint counts`);
  return rows.map((row) => Buffer.from(row.h, 'hex'));
}

export type StoredProof = (node: NodeLookup) => Buffer[];

/** Proofs made from the nodes they read, fetched together: the leaves (level 0) and the inner nodes. */
export async function fromStoredNodes(sql: Sql, proofs: readonly StoredProof[]): Promise<Buffer[][]> {
  const wanted = new Map<string, NodeRef>();
  for (const proof of proofs) for (const ref of nodesOf(proof)) wanted.set(`${ref.level}:${ref.index}`, ref);
  const refs = [...wanted.values()];
  const found = new Map<string, Buffer>();
  // A node below the stored levels is made from its leaves (2^level of them, from index·2^level).
  const small = refs.filter((r) => r.level > 0 && r.level < STORED_NODE_LEVEL);
  const leaves = [...refs.filter((r) => r.level === 0).map((r) => r.index), ...small.flatMap((r) => Array.from({ length: 2 ** r.level }, (_, i) => r.index * 2 ** r.level + i))];
  const inner = refs.filter((r) => r.level >= STORED_NODE_LEVEL);
  if (leaves.length > 0) {
    const { rows } = await sql.query<{ i: string; h: string }>(`SELECT leaf_index::text AS i, encode(leaf_hash, 'hex') AS h FROM audit_leaves WHERE leaf_index = ANY($1::bigint[])`, [leaves]);
    for (const row of rows) found.set(`0:${row.i}`, Buffer.from(row.h, 'hex'));
  }
  if (inner.length > 0) {
    const { rows } = await sql.query<{ k: string; h: string }>(
      `SELECT n.level || ':' || n.node_index AS k, encode(n.hash, 'hex') AS h
       FROM audit_nodes n JOIN unnest($1::smallint[], $2::bigint[]) AS w(level, node_index) USING (level, node_index)`,
      [inner.map((r) => r.level), inner.map((r) => r.index)],
    );
    for (const row of rows) found.set(row.k, Buffer.from(row.h, 'hex'));
  }
  for (const r of small) {
    const width = 2 ** r.level;
    const below = Array.from({ length: width }, (_, i) => found.get(`0:${r.index * width + i}`));
    if (below.every((h): h is Buffer => h !== undefined)) found.set(`${r.level}:${r.index}`, rootOf(below));
  }
  const lookup: NodeLookup = (level, index) => {
    const hash = found.get(`${level}:${index}`);
    if (!hash) throw new Error(`the Merkle log has no node (${level}, ${index}): its leaves or inner nodes are missing`);
    return hash;
  };
  return proofs.map((proof) => proof(lookup));
}
