import { eventLeafData } from '@palimpsest/core/audit/event-chain';
import { leafHash, pushToFrontier, rootOfFrontier, type MerkleNode } from '@palimpsest/core/audit/merkle-log';
import type { SignedCheckpoint } from '@palimpsest/core/audit/checkpoint-note';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db, Sql } from '@palimpsest/store/db';
import { EVENTS_AND_ARCHIVE, type StoredEvent } from '@palimpsest/store/stored-event';
import { currentStreamVersion } from '@palimpsest/store/stream-version';
import type { AuditSigner } from './audit-signer';

/**
 * The Merkle log's reactor, a processor of the projector's one log consumer: it appends a leaf per event,
 * in the order the consumer reads the log, and every `everyEvents` leaves, or on the first batch
 * `everySeconds` after the last checkpoint, signs a checkpoint of the whole log and appends it as an
 * event of the `audit-log` stream (which becomes a leaf in turn). Leaves, checkpoint event, state and
 * the consumer's checkpoint commit in one transaction: exactly once.
 */

export const AUDIT_LOG_PROCESSOR = 'audit_log';
export const AUDIT_STREAM = 'audit-log';
export const CHECKPOINT_EVENT = 'LogCheckpointSigned';

/**
 * The lowest level of inner node audit_nodes holds: a subtree of fewer than 2^4 leaves is hashed from its
 * leaves when a proof needs it (at most 8 leaves read), which keeps the table at one row per 16 leaves.
 */
export const STORED_NODE_LEVEL = 4;

export interface AuditLogPolicy {
  everyEvents: number;
  everySeconds: number;
}

export const DEFAULT_AUDIT_POLICY: AuditLogPolicy = { everyEvents: 1000, everySeconds: 10 };

/** What a LogCheckpointSigned event holds. */
export interface CheckpointEventData {
  origin: string;
  size: number;
  /** Hex. */
  root: string;
  /** The C2SP signed note. */
  note: string;
}

interface State {
  size: number;
  frontier: Buffer[];
  checkpoint_size: number;
  checkpoint_at: Date | null;
}

/** Extends the log with `events` (readAll order) in `tx`; the checkpoint it signed, if it signed one. */
export async function extendAuditLog(tx: Sql, events: readonly StoredEvent[], signer: AuditSigner, policy: AuditLogPolicy, now: Date): Promise<SignedCheckpoint | null> {
  const state = await stateOf(tx);
  const from = state.size;
  const links = await chainLinksOf(tx, events);
  const hashes: string[] = [];
  const nodes: MerkleNode[] = [];
  for (const [i, event] of events.entries()) {
    const leaf = leafHash(eventLeafData(event, links[i]!));
    state.frontier = pushToFrontier(state.frontier, state.size + i, leaf, nodes);
    hashes.push(leaf.toString('hex'));
  }
  state.size += events.length;
  // A batch of checkpoint events alone signs nothing: each checkpoint would otherwise call the next.
  const news = events.some((e) => e.streamId !== AUDIT_STREAM);
  const due =
    news &&
    state.size > state.checkpoint_size &&
    (state.size - state.checkpoint_size >= policy.everyEvents || !state.checkpoint_at || now.getTime() - state.checkpoint_at.getTime() >= policy.everySeconds * 1000);
  let signed: SignedCheckpoint | null = null;
  if (due) {
    signed = signer.sign({ size: state.size, root: rootOfFrontier(state.frontier) });
    const data: CheckpointEventData = { origin: signed.origin, size: signed.size, root: signed.root.toString('hex'), note: signed.note };
    await appendToStream(tx, AUDIT_STREAM, await currentStreamVersion(tx, AUDIT_STREAM), [{ type: CHECKPOINT_EVENT, schemaVersion: 1, data, recordedAt: now.toISOString() }], { notifyChannel: null });
    state.checkpoint_size = state.size;
    state.checkpoint_at = now;
  }
  await writeLeaves(tx, from, events, hashes, nodes.filter((n) => n.level >= STORED_NODE_LEVEL), state);
  return signed;
}

/** Each event's chain link: carried by the page when the consumer read it (readsChainLinks), else read here. */
async function chainLinksOf(tx: Sql, events: readonly StoredEvent[]): Promise<string[]> {
  if (events.every((e) => e.chainHash !== undefined)) return events.map((e) => e.chainHash!);
  const { rows } = await tx.query<{ global_position: number; link: string }>(
    `SELECT global_position, encode(chain_hash, 'hex') AS link FROM ${EVENTS_AND_ARCHIVE} AS events WHERE global_position = ANY($1::bigint[])`,
    [events.map((e) => e.globalPosition)],
  );
  const links = new Map(rows.map((row) => [row.global_position, row.link]));
  return events.map((e) => {
    const link = links.get(e.globalPosition);
    if (!link) throw new Error(`event ${e.globalPosition} has no chain link`);
    return link;
  });
}

/**
 * The batch's leaves from index `from` on, the inner nodes they completed (what proofs read instead of
 * every leaf) and the log's new state, in one statement.
 */
async function writeLeaves(tx: Sql, from: number, events: readonly StoredEvent[], hashes: string[], nodes: readonly MerkleNode[], state: State): Promise<void> {
  await tx.query(
    `WITH leaves AS (
       INSERT INTO audit_leaves (leaf_index, global_position, leaf_hash)
       SELECT $1::bigint + l.ord - 1, l.position, decode(l.hash, 'hex')
       FROM unnest($2::bigint[], $3::text[]) WITH ORDINALITY AS l(position, hash, ord)
     ), nodes AS (
       INSERT INTO audit_nodes (level, node_index, hash) SELECT n.level, n.node_index, decode(n.hash, 'hex')
       FROM unnest($4::smallint[], $5::bigint[], $6::text[]) AS n(level, node_index, hash)
     )
     INSERT INTO audit_log_state (id, size, frontier, checkpoint_size, checkpoint_at) VALUES (true, $7, $8::text[]::bytea[], $9, $10)
     ON CONFLICT (id) DO UPDATE SET size = EXCLUDED.size, frontier = EXCLUDED.frontier, checkpoint_size = EXCLUDED.checkpoint_size, checkpoint_at = EXCLUDED.checkpoint_at`,
    [
      from,
      events.map((e) => e.globalPosition),
      hashes,
      nodes.map((n) => n.level),
      nodes.map((n) => n.index),
      nodes.map((n) => n.hash.toString('hex')),
      state.size,
      state.frontier.map((h) => `\\x${h.toString('hex')}`),
      state.checkpoint_size,
      state.checkpoint_at,
    ],
  );
}

async function stateOf(tx: Sql): Promise<State> {
  const { rows } = await tx.query<{ size: number; frontier: string[]; checkpoint_size: number; checkpoint_at: Date | null }>(
    `SELECT size, array(SELECT encode(f, 'hex') FROM unnest(frontier) AS f) AS frontier, checkpoint_size, checkpoint_at
     FROM audit_log_state WHERE id FOR UPDATE`,
  );
  const row = rows[0];
  if (!row) return { size: 0, frontier: [], checkpoint_size: 0, checkpoint_at: null };
  return { ...row, frontier: row.frontier.map((h) => Buffer.from(h, 'hex')) };
}

/** The batch a log consumer hands its processors (apps/projector log-processor.ts), as far as this one uses it. */
export interface AuditBatch {
  commit(sql?: Sql): Promise<void>;
}

/** The reactor as a processor of the projector's log consumer (kind projection: exactly once). */
export function auditLogProcessor(db: Db, signer: AuditSigner, policy: AuditLogPolicy = DEFAULT_AUDIT_POLICY, clock: () => Date = () => new Date()) {
  return {
    name: AUDIT_LOG_PROCESSOR,
    kind: 'projection' as const,
    readsChainLinks: true,
    async handle(events: readonly StoredEvent[], batch: AuditBatch): Promise<void> {
      await db.transaction(async (tx) => {
        await extendAuditLog(tx, events, signer, policy, clock());
        await batch.commit(tx);
      });
    },
  };
}
