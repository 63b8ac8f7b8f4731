import { createHash, createPublicKey, sign, verify, type KeyObject } from 'node:crypto';

/**
 * Checkpoints of the Merkle log as C2SP signed notes (c2sp.org/tlog-checkpoint, c2sp.org/signed-note):
 * the body is `<origin>\n<size>\n<base64 root>\n`, then a blank line and one signature line
 * `— <key name> <base64(key id ‖ Ed25519 signature of the body)>`, the key id being the first four bytes
 * of SHA-256(<key name> ‖ "\n" ‖ 0x01 ‖ the 32-byte public key).
 */

export interface Checkpoint {
  origin: string;
  size: number;
  /** 32 bytes. */
  root: Buffer;
}

export interface SignedCheckpoint extends Checkpoint {
  /** The whole note, body and signature lines. */
  note: string;
}

const ED25519 = 0x01;
const DASH = '\u2014';

export function checkpointBody(checkpoint: Checkpoint): string {
  if (!checkpoint.origin || /[\n+\s]/.test(checkpoint.origin)) throw new RangeError(`a checkpoint origin is one word: ${checkpoint.origin}`);
  if (!Number.isSafeInteger(checkpoint.size) || checkpoint.size < 0) throw new RangeError(`bad checkpoint size ${checkpoint.size}`);
  if (checkpoint.root.length !== 32) throw new RangeError('a checkpoint root is 32 bytes');
  return `${checkpoint.origin}\n${checkpoint.size}\n${checkpoint.root.toString('base64')}\n`;
}

/** The raw 32-byte Ed25519 public key of a key object. */
export function rawPublicKey(key: KeyObject): Buffer {
  const jwk = key.export({ format: 'jwk' });
  if (jwk.crv !== 'Ed25519' || typeof jwk.x !== 'string') throw new TypeError('not an Ed25519 key');
  return Buffer.from(jwk.x, 'base64url');
}

export function keyId(name: string, publicKey: Buffer): Buffer {
  return createHash('sha256').update(`${name}\n`, 'utf8').update(Buffer.from([ED25519])).update(publicKey).digest().subarray(0, 4);
}

/** The verifier key as signed-note tools take it: `<name>+<hex key id>+<base64(0x01 ‖ public key)>`. */
export function verifierKey(name: string, publicKey: Buffer): string {
  return `${name}+${keyId(name, publicKey).toString('hex')}+${Buffer.concat([Buffer.from([ED25519]), publicKey]).toString('base64')}`;
}

export function parseVerifierKey(text: string): { name: string; publicKey: Buffer } {
  // The base64 key may hold '+' itself: the name and id are the first two fields.
  const match = /^([^+\s]+)\+([0-9a-f]{8})\+([A-Za-z0-9+/]+=*)$/.exec(text.trim());
  const [name, id, key] = [match?.[1], match?.[2], match?.[3]];
  const bytes = Buffer.from(key ?? '', 'base64');
  if (!name || !id || bytes.length !== 33 || bytes[0] !== ED25519) throw new RangeError('not an Ed25519 verifier key');
  const publicKey = bytes.subarray(1);
  if (keyId(name, publicKey).toString('hex') !== id) throw new RangeError('the verifier key id does not match its key');
  return { name, publicKey };
}

export function signCheckpoint(checkpoint: Checkpoint, name: string, privateKey: KeyObject, publicKey: Buffer): SignedCheckpoint {
  const body = checkpointBody(checkpoint);
  const signature = sign(null, Buffer.from(body, 'utf8'), privateKey);
  const line = `${DASH} ${name} ${Buffer.concat([keyId(name, publicKey), signature]).toString('base64')}\n`;
  return { ...checkpoint, note: `${body}\n${line}` };
}

/**
 * The checkpoint a note states, when it carries a valid signature by `name`'s key; else why not. A note
 * whose body is not exactly a checkpoint's is refused too.
 */
export function openCheckpoint(note: string, name: string, publicKey: Buffer): { ok: true; checkpoint: SignedCheckpoint } | { ok: false; reason: string } {
  const split = note.indexOf('\n\n');
  if (split < 0) return { ok: false, reason: 'no signature block' };
  const body = note.slice(0, split + 1);
  const lines = body.split('\n');
  const [origin, sizeText, rootText] = lines;
  const size = Number(sizeText);
  const root = Buffer.from(rootText ?? '', 'base64');
  if (lines.length !== 4 || !origin || !/^(0|[1-9][0-9]*)$/.test(sizeText ?? '') || root.length !== 32) return { ok: false, reason: 'not a checkpoint body' };
  if (checkpointBody({ origin, size, root }) !== body) return { ok: false, reason: 'not a canonical checkpoint body' };
  const id = keyId(name, publicKey);
  const key = createPublicKey({ key: { kty: 'OKP', crv: 'Ed25519', x: publicKey.toString('base64url') }, format: 'jwk' });
  for (const line of note.slice(split + 2).split('\n')) {
    const match = new RegExp(`^${DASH} (\\S+) (\\S+)$`).exec(line);
    if (!match || match[1] !== name) continue;
    const bytes = Buffer.from(match[2]!, 'base64');
    if (bytes.length !== 68 || !bytes.subarray(0, 4).equals(id)) continue;
    if (verify(null, Buffer.from(body, 'utf8'), key, bytes.subarray(4))) return { ok: true, checkpoint: { origin, size, root, note } };
    return { ok: false, reason: `the signature of ${name} does not verify` };
  }
  return { ok: false, reason: `no signature by ${name}` };
}
