/**
 * The verification bundle (`palimpsest export`): events with their chain links and leaf indexes, every
 * signed checkpoint, the consistency proofs between successive checkpoints, an inclusion proof per
 * event, and the verifier key. Everything in it is checked by verifyBundle with nothing else.
 */

export const BUNDLE_FORMAT = 'palimpsest-audit-bundle/1';

export interface BundleEvent {
  global_position: number;
  stream_id: string;
  stream_version: number;
  type: string;
  schema_version: number;
  data: unknown;
  metadata: Record<string, unknown>;
  recorded_at: string;
  /** Hex. */
  chain_hash: string;
  /** Its leaf in the Merkle log; null while the reactor has not reached it. */
  leaf_index: number | null;
}

export interface BundleCheckpoint {
  /** The C2SP signed note. */
  note: string;
  /** Where the checkpoint event sits in the log. */
  global_position: number;
}

export interface BundleConsistency {
  first_size: number;
  second_size: number;
  /** Hex hashes. */
  proof: string[];
}

export interface BundleInclusion {
  global_position: number;
  tree_size: number;
  path: string[];
}

export interface AuditBundle {
  format: typeof BUNDLE_FORMAT;
  /** `<name>+<key id>+<base64 key>`. */
  verifier_key: string;
  /** What was exported: the whole log, or the streams named (each whole, from version 1). */
  scope: { kind: 'log' } | { kind: 'streams'; streams: string[] };
  events: BundleEvent[];
  checkpoints: BundleCheckpoint[];
  consistency: BundleConsistency[];
  inclusion: BundleInclusion[];
  /**
   * A bundle of the whole log: the hashes (hex) of the first `size` leaves of its latest checkpoint, which
   * must make its signed root; each event's own leaf is then compared with the one at its index.
   */
  leaves?: string[];
}
