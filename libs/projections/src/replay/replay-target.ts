import { ReplayDivergence } from '@palimpsest/core/target/target.decider';
import { TargetReplay } from '@palimpsest/core/target/target-replay';
import { targetStreamId } from '@palimpsest/core/target/target.events';
import type { TargetState } from '@palimpsest/core/target/target.state';
import { sha256Hex } from '@palimpsest/core/text/sha256';
import type { Sql } from '@palimpsest/store/db';
import { streamPages } from '@palimpsest/store/read-stream';
import { ASSEMBLED_CONTENT } from '../content/target-content';

export interface ReplayReport {
  status: 'success' | 'failed';
  target_file_id: string;
  reconstructed_hash: string | null;
  current_hash: string | null;
  reconstructed_version: number | null;
  current_version: number | null;
  accepted_transactions_replayed: number;
  materialized_state_matches: boolean;
  materialized_state_checks: {
    content_matches: boolean;
    stored_hash_matches: boolean;
    recomputed_hash_matches: boolean;
    version_matches: boolean;
  };
  failure_reason?: 'replay_protocol_invalid' | 'replay_diverged';
  failure_detail?: string;
  diverged_attempt_id?: string;
}

export interface Reconstruction {
  state: TargetState;
  accepted: number;
  divergence: ReplayDivergence | null;
}

/** A target's stream through the replay verifier (TargetReplay), read a page at a time and not kept. */
export async function reconstructTarget(sql: Sql, targetId: string): Promise<Reconstruction> {
  const replay = new TargetReplay();
  for await (const page of streamPages(sql, targetStreamId(targetId))) {
    for (const s of page) {
      try {
        replay.step(s);
      } catch (err) {
        if (err instanceof ReplayDivergence) return { state: replay.state, accepted: replay.accepted, divergence: err };
        throw err;
      }
    }
  }
  return { state: replay.state, accepted: replay.accepted, divergence: null };
}

/** Compare the reconstruction with the materialized row. Reports divergence; never repairs. */
export async function replayTarget(sql: Sql, targetId: string): Promise<ReplayReport | null> {
  const { rows } = await sql.query(
    `SELECT ${ASSEMBLED_CONTENT('t.target_id')} AS content, current_hash, version FROM targets t WHERE target_id = $1`,
    [targetId],
  );
  const rebuilt = await reconstructTarget(sql, targetId);
  if (!rows.length && !rebuilt.state.exists) return null;
  const row = rows[0] as { content: string; current_hash: string; version: number } | undefined;
  const s = rebuilt.state.exists ? rebuilt.state : null;
  const checks = {
    content_matches: !!row && !!s && row.content === s.content,
    stored_hash_matches: !!row && !!s && row.current_hash === s.current_hash,
    recomputed_hash_matches: !!row && !!s && sha256Hex(row.content) === s.current_hash,
    version_matches: !!row && !!s && row.version === s.version,
  };
  const report: ReplayReport = {
    status: rebuilt.divergence ? 'failed' : 'success',
    target_file_id: targetId,
    reconstructed_hash: s ? s.current_hash : null,
    current_hash: row ? row.current_hash : null,
    reconstructed_version: s ? s.version : null,
    current_version: row ? row.version : null,
    accepted_transactions_replayed: rebuilt.accepted,
    materialized_state_matches: Object.values(checks).every(Boolean) && !rebuilt.divergence,
    materialized_state_checks: checks,
  };
  if (rebuilt.divergence) {
    const unsupported = /unsupported_profile|protocol_invalid/.test(rebuilt.divergence.reason);
    report.failure_reason = unsupported ? 'replay_protocol_invalid' : 'replay_diverged';
    report.failure_detail = rebuilt.divergence.message;
    report.diverged_attempt_id = rebuilt.divergence.attemptId;
  }
  return report;
}
