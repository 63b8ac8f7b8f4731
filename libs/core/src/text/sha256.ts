// Hashing is deterministic computation, not I/O: node:crypto's digest is the one node:* import core allows.
import { createHash, hash, type Hash } from 'node:crypto';

/**
 * Lowercase hex SHA-256 of the UTF-8 encoding of `text`, or of bytes as they are. One-shot (crypto.hash):
 * a submit takes several, and a Hash object costs about 3 µs more each.
 */
export function sha256Hex(data: string | Uint8Array): string {
  return hash('sha256', data, 'hex');
}

export const SHA256_HEX = /^[0-9a-f]{64}$/;

/**
 * SHA-256 of a text given as pieces, remembering the hash state before each piece, so that after the
 * pieces from some index on change only those are hashed again (SHA-256 is computed front to back:
 * the state after an unchanged prefix is reused, the digest is that of the whole text).
 */
export class PrefixSha256 {
  /** before[i]: the state after pieces 0 … i-1; before[0] is the empty state. */
  private before: Hash[] = [createHash('sha256')];

  /** Pieces from `index` on changed: the states after them are stale. */
  invalidateFrom(index: number): void {
    if (this.before.length > index + 1) this.before.length = index + 1;
  }

  digest(pieces: readonly string[]): string {
    for (let i = this.before.length - 1; i < pieces.length; i++) this.before.push(this.before[i]!.copy().update(pieces[i]!, 'utf8'));
    if (this.before.length > pieces.length + 1) this.before.length = pieces.length + 1;
    return this.before[pieces.length]!.copy().digest('hex');
  }
}
