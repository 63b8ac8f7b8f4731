import { sha256Hex } from '../text/sha256';
import { canonicalJson } from '../transaction/record-codec';

/** Seed syntax for client_request_id: 1..128 printable ASCII characters. */
const REQUEST_KEY = /^[\x20-\x7e]{1,128}$/;
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

export function isValidRequestKey(value: unknown): value is string {
  return typeof value === 'string' && REQUEST_KEY.test(value);
}

export function isUuid(value: unknown): value is string {
  return typeof value === 'string' && UUID.test(value);
}

/** The envelope members a request fingerprint covers (and request-key conflicts compare). */
export interface FingerprintEnvelope {
  protocol_version: string | null;
  attempt_content_hash: string;
  expected_target_version: number | null;
  expected_current_hash: string | null;
  parent_attempt_id: string | null;
}

export function requestFingerprint(envelope: FingerprintEnvelope): string {
  return sha256Hex(canonicalJson(envelope));
}

export const FINGERPRINT_COMPONENTS: readonly (keyof FingerprintEnvelope)[] = [
  'protocol_version',
  'attempt_content_hash',
  'expected_target_version',
  'expected_current_hash',
  'parent_attempt_id',
];

export function differingComponents(a: FingerprintEnvelope, b: FingerprintEnvelope): string[] {
  return FINGERPRINT_COMPONENTS.filter((key) => a[key] !== b[key]);
}

/** A bounded, printable preview of a submitted key for audit rows (never the key binding itself). */
export function requestKeyPreview(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  const text = typeof value === 'string' ? value : JSON.stringify(value);
  const escaped = asciiEscape(text);
  return escaped.length > 160 ? `${escaped.slice(0, 157)}...` : escaped;
}

/**
 * Reversible ASCII escaping: every non-ASCII unit (including lone surrogates) becomes \uXXXX.
 * JSON.parse of the result restores the original string exactly.
 */
export function asciiEscape(text: string): string {
  return text.replace(/[^\x20-\x7e]/g, (ch) => `\\u${ch.charCodeAt(0).toString(16).padStart(4, '0')}`);
}
