import type { KeyedAttempt, ParentAttempt } from '@palimpsest/core/target/target.commands';
import type { Sql } from '@palimpsest/store/db';
import { everyEventWhere } from '@palimpsest/store/stored-event';

/**
 * The attempt lookups a submission decides with (seed: request-key recovery and lineage). The keyed
 * lookup runs after the target row is locked, as its own statement, so it sees every attempt
 * committed before the lock was granted.
 */

export async function findKeyedAttempt(tx: Sql, targetId: string, key: string): Promise<KeyedAttempt | null> {
  const { rows } = await tx.query<KeyedAttempt>(
    `SELECT a.attempt_id::text AS attempt_id, e.data->>'request_fingerprint' AS request_fingerprint, a.protocol_version,
            a.content_hash, a.expected_target_version, e.data->>'expected_current_hash' AS expected_current_hash,
            a.parent_attempt_id::text AS parent_attempt_id,
            e.data->>'content' AS content
       FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e
      WHERE a.target_id = $1 AND a.client_request_id = $2`,
    [targetId, key],
  );
  return rows[0] ?? null;
}

export async function findParentAttempt(tx: Sql, parentId: string): Promise<ParentAttempt | null> {
  const { rows } = await tx.query<ParentAttempt>(
    `SELECT attempt_id::text AS attempt_id, target_id::text AS target_id, status FROM attempts WHERE attempt_id = $1`,
    [parentId],
  );
  return rows[0] ?? null;
}

/** The recorded attempt a recovered request is answered with, as its attempts row. */
export async function attemptRow(tx: Sql, attemptId: string): Promise<Record<string, unknown> | null> {
  const { rows } = await tx.query<Record<string, unknown>>(
    `SELECT a.attempt_id::text AS attempt_id, a.log_sequence, a.target_id::text AS target_id, a.status, a.client_request_id,
            a.before_version, e.data->>'before_hash' AS before_hash, a.after_version, e.data->>'after_hash' AS after_hash,
            a.failure_reason, a.failure_detail,
            a.failed_change_id, a.validation_stage, a.diagnostic, e.data->'change_facts' AS change_facts,
            e.data->'rebased' AS rebased
       FROM attempts a CROSS JOIN LATERAL ${everyEventWhere('global_position = a.log_sequence')} e WHERE a.attempt_id = $1`,
    [attemptId],
  );
  return rows[0] ?? null;
}
