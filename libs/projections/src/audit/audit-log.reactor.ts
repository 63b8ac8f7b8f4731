import { eventLeafData } from '@palimpsest/core/audit/event-chain';
import { leafHash, pushToFrontier, rootOfFrontier } from '@palimpsest/core/audit/merkle-log';
import type { SignedCheckpoint } from '@palimpsest/core/audit/checkpoint-note';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import type { Db, Sql } from '@palimpsest/store/db';
import type { StoredEvent } from '@palimpsest/store/stored-event';
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
  if (events.length > 0) {
    const { rows } = await tx.query<{ global_position: number; link: string }>(
      `SELECT global_position, encode(chain_hash, 'hex') AS link FROM events WHERE global_position = ANY($1::bigint[])`,
      [events.map((e) => e.globalPosition)],
    );
    const links = new Map(rows.map((row) => [row.global_position, row.link]));
    const hashes: string[] = [];
    for (const event of events) {
      const link = links.get(event.globalPosition);
      if (!link) throw new Error(`event ${event.globalPosition} has no chain link`);
      const leaf = leafHash(eventLeafData(event, link));
      state.frontier = pushToFrontier(state.frontier, state.size + hashes.length, leaf);
      hashes.push(leaf.toString('hex'));
    }
    await tx.query(
      `INSERT INTO audit_leaves (leaf_index, global_position, leaf_hash)
       SELECT $1::bigint + l.ord - 1, l.position, decode(l.hash, 'hex')
       FROM unnest($2::bigint[], $3::text[]) WITH ORDINALITY AS l(position, hash, ord)`,
      [state.size, events.map((e) => e.globalPosition), hashes],
    );
    state.size += events.length;
  }
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
    const { rows } = await tx.query<{ v: number }>('SELECT coalesce(max(stream_version), 0) AS v FROM events WHERE stream_id = $1', [AUDIT_STREAM]);
    await appendToStream(tx, AUDIT_STREAM, rows[0]!.v, [{ type: CHECKPOINT_EVENT, schemaVersion: 1, data, recordedAt: now.toISOString() }], { notifyChannel: null });
    state.checkpoint_size = state.size;
    state.checkpoint_at = now;
  }
  await tx.query(
    `INSERT INTO audit_log_state (id, size, frontier, checkpoint_size, checkpoint_at) VALUES (true, $1, $2::text[]::bytea[], $3, $4)
     ON CONFLICT (id) DO UPDATE SET size = EXCLUDED.size, frontier = EXCLUDED.frontier, checkpoint_size = EXCLUDED.checkpoint_size, checkpoint_at = EXCLUDED.checkpoint_at`,
    [state.size, state.frontier.map((h) => `\\x${h.toString('hex')}`), state.checkpoint_size, state.checkpoint_at],
  );
  return signed;
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
    async handle(events: readonly StoredEvent[], batch: AuditBatch): Promise<void> {
      await db.transaction(async (tx) => {
        await extendAuditLog(tx, events, signer, policy, clock());
        await batch.commit(tx);
      });
    },
  };
}
