// Hashing is deterministic computation, not I/O: node:crypto's digest is the one node:* import core allows.
import { createHash } from 'node:crypto';

/** Lowercase hex SHA-256 of the UTF-8 encoding of `text`. */
export function sha256Hex(text: string): string {
  return createHash('sha256').update(text, 'utf8').digest('hex');
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;
