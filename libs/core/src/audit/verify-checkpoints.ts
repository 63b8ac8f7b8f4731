import { openCheckpoint, parseVerifierKey, type SignedCheckpoint } from './checkpoint-note';
import type { BundleCheckpoint, BundleConsistency } from './audit-bundle';
import { verifyConsistency } from './merkle-log';
import type { AuditFailure } from './audit-report';

/**
 * Step 1 of verification, the same for every bundle format: every checkpoint signed by the key, sizes
 * growing, each consistent with the one before; with `trusted`, that a checkpoint seen before is still there.
 */
export function verifyCheckpoints(
  bundle: { verifier_key: string; checkpoints: readonly BundleCheckpoint[]; consistency?: readonly BundleConsistency[] },
  trusted?: string,
): { failure: AuditFailure } | { latest: SignedCheckpoint | null } {
  let key: { name: string; publicKey: Buffer };
  try {
    key = parseVerifierKey(bundle.verifier_key);
  } catch (error) {
    return { failure: { kind: 'bundle', reason: `verifier key: ${(error as Error).message}` } };
  }
  const signed: SignedCheckpoint[] = [];
  for (const [index, c] of bundle.checkpoints.entries()) {
    const opened = openCheckpoint(c.note, key.name, key.publicKey);
    if (!opened.ok) return { failure: { kind: 'checkpoint', index, size: sizeInNote(c.note), reason: opened.reason } };
    const failure = stepFailure(signed.at(-1), opened.checkpoint, index, bundle.consistency ?? []);
    if (failure) return { failure };
    signed.push(opened.checkpoint);
  }
  if (trusted !== undefined) {
    const opened = openCheckpoint(trusted, key.name, key.publicKey);
    if (!opened.ok) return { failure: { kind: 'bundle', reason: `the checkpoint trusted: ${opened.reason}` } };
    const body = (note: string) => note.slice(0, note.indexOf('\n\n'));
    if (!signed.some((c) => body(c.note) === body(opened.checkpoint.note))) {
      return { failure: { kind: 'bundle', reason: `the checkpoint trusted (size ${opened.checkpoint.size}) is not in the log: it was truncated or rewritten after it` } };
    }
  }
  return { latest: signed.at(-1) ?? null };
}

function stepFailure(previous: SignedCheckpoint | undefined, next: SignedCheckpoint, index: number, consistency: readonly BundleConsistency[]): AuditFailure | null {
  if (!previous) return null;
  const at = { kind: 'checkpoint' as const, index, size: next.size };
  if (next.origin !== previous.origin) return { ...at, reason: 'another log\'s origin' };
  if (next.size < previous.size) return { ...at, reason: `smaller than the checkpoint before it (${previous.size}): out of order` };
  if (next.size === previous.size) return next.root.equals(previous.root) ? null : { ...at, reason: 'same size as the checkpoint before it, another root: a fork' };
  const proof = consistency.find((p) => p.first_size === previous.size && p.second_size === next.size);
  if (!proof) return { ...at, reason: `no consistency proof from ${previous.size}` };
  if (!verifyConsistency(previous.size, next.size, previous.root, next.root, proof.proof.map((h) => Buffer.from(h, 'hex')))) {
    return { ...at, reason: `not consistent with checkpoint ${index - 1} (size ${previous.size}): the log was rewritten between them` };
  }
  return null;
}

function sizeInNote(note: string): number | null {
  const size = Number(note.split('\n')[1]);
  return Number.isSafeInteger(size) ? size : null;
}
