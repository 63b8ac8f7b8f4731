import { createPrivateKey, createPublicKey, generateKeyPairSync, type KeyObject } from 'node:crypto';
import { mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { dirname } from 'node:path';
import { rawPublicKey, signCheckpoint, verifierKey, type Checkpoint, type SignedCheckpoint } from '@palimpsest/core/audit/checkpoint-note';

/**
 * The service's Ed25519 key, which signs the Merkle log's checkpoints. It lives in a file beside the
 * service's own data (by default in the `.palimpsest` directory no tool can reach), never in the
 * database: whoever can rewrite the database must not be able to sign for it. Made on first use (0600).
 */
export interface AuditSigner {
  /** The key's name in signed notes. */
  readonly name: string;
  /** The log's origin line in checkpoints. */
  readonly origin: string;
  readonly publicKey: Buffer;
  /** `<name>+<key id>+<base64 key>`: what a verifier is given (printed at start, served, exported). */
  readonly verifierKey: string;
  sign(checkpoint: Omit<Checkpoint, 'origin'>): SignedCheckpoint;
}

export const DEFAULT_AUDIT_KEY_NAME = 'palimpsest';
export const DEFAULT_AUDIT_ORIGIN = 'palimpsest/log';

export function auditSigner(privateKey: KeyObject, name = DEFAULT_AUDIT_KEY_NAME, origin = DEFAULT_AUDIT_ORIGIN): AuditSigner {
  const publicKey = rawPublicKey(createPublicKey(privateKey));
  return {
    name,
    origin,
    publicKey,
    verifierKey: verifierKey(name, publicKey),
    sign: (checkpoint) => signCheckpoint({ ...checkpoint, origin }, name, privateKey, publicKey),
  };
}

/** The key in `file` (PKCS#8 PEM), made there first when there is none. */
export function loadOrCreateAuditKey(file: string): KeyObject {
  try {
    return createPrivateKey(readFileSync(file, 'utf8'));
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code !== 'ENOENT') throw error;
  }
  const { privateKey } = generateKeyPairSync('ed25519');
  mkdirSync(dirname(file), { recursive: true });
  try {
    writeFileSync(file, privateKey.export({ format: 'pem', type: 'pkcs8' }), { mode: 0o600, flag: 'wx' });
  } catch (error) {
    // Another process made it first: use theirs.
    if ((error as NodeJS.ErrnoException).code !== 'EEXIST') throw error;
    return createPrivateKey(readFileSync(file, 'utf8'));
  }
  return privateKey;
}
