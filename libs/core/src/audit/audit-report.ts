import type { EngineRerun } from './verify-engines';

/** What verification answers, whatever the bundle's format: the counts, and the first failure named. */

export type AuditFailure =
  | { kind: 'bundle'; reason: string }
  | { kind: 'checkpoint'; index: number; size: number | null; reason: string }
  | { kind: 'event'; global_position: number; stream_id: string; stream_version: number; reason: string }
  | { kind: 'stream'; stream_id: string; reason: string };

export interface AuditReport {
  ok: boolean;
  failure: AuditFailure | null;
  events: number;
  streams: number;
  checkpoints: number;
  /** Events the latest checkpoint covers (inclusion proven); the rest are too recent for one. */
  proven: number;
  /** The latest checkpoint, when there is one. */
  latest: { size: number; root: string } | null;
  /** The replay verifier's re-run of every target stream, when it ran (after every other check passed). */
  replayed?: EngineRerun;
}

