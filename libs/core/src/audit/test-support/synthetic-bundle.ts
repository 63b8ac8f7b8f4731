import { generateKeyPairSync } from 'node:crypto';
import { BUNDLE_FORMAT, type AuditBundle, type BundleEvent } from '../audit-bundle';
import { inCanonicalMemberOrder } from '../canonical-payload';
import { rawPublicKey, signCheckpoint, verifierKey } from '../checkpoint-note';
import { chainLink, eventDigest, eventLeafData, GENESIS_LINK } from '../event-chain';
import { leafHash, rootOf } from '../merkle-log';

/** A whole-log bundle of `count` events over `streams` streams, chained, every leaf, one checkpoint signed over all of them. */
export function syntheticBundle(count: number, streams = 64): { bundle: AuditBundle; leaves: Buffer[]; chainUsPerEvent: number } {
  const versions = new Map<string, { version: number; link: string }>();
  const events: BundleEvent[] = [];
  const leaves: Buffer[] = [];
  const started = performance.now();
  for (let i = 0; i < count; i++) {
    const streamId = `stream-${i % streams}`;
    const at = versions.get(streamId) ?? { version: 0, link: GENESIS_LINK };
    const event = {
      streamId,
      streamVersion: at.version + 1,
      type: 'ProposalAccepted',
      schemaVersion: 2,
      // As `palimpsest export` writes a payload: its members in canonical order.
      data: inCanonicalMemberOrder({ attempt_id: `a-${i}`, before_version: at.version, after_version: at.version + 1, effects: [{ start: i % 100, end: (i % 100) + 5, inserted: 'lorem' }] }),
      metadata: {},
      recordedAt: new Date(1_700_000_000_000 + i).toISOString(),
    };
    const link = chainLink(at.link, eventDigest(event));
    versions.set(streamId, { version: event.streamVersion, link });
    const e: BundleEvent = { global_position: i + 1, stream_id: streamId, stream_version: event.streamVersion, type: event.type, schema_version: 2, data: event.data, metadata: {}, recorded_at: event.recordedAt, chain_hash: link, leaf_index: i };
    events.push(e);
    leaves.push(leafHash(eventLeafData({ globalPosition: e.global_position, streamId, streamVersion: e.stream_version }, link)));
  }
  const chainUsPerEvent = ((performance.now() - started) * 1000) / count;
  const bundle: AuditBundle = {
    format: BUNDLE_FORMAT,
    verifier_key: SYNTHETIC_KEY.verifierKey,
    scope: { kind: 'log' },
    events,
    checkpoints: [{ note: signSynthetic(count, rootOf(leaves)), global_position: count + 1 }],
    consistency: [],
    inclusion: [],
    leaves: leaves.map((l) => l.toString('hex')),
  };
  return { bundle, leaves, chainUsPerEvent };
}

const NAME = 'palimpsest.synthetic';
const { privateKey, publicKey } = generateKeyPairSync('ed25519');
export const SYNTHETIC_KEY = { name: NAME, privateKey, publicKey: rawPublicKey(publicKey), verifierKey: verifierKey(NAME, rawPublicKey(publicKey)) };

/** A checkpoint note of the synthetic log, signed by its key. */
export function signSynthetic(size: number, root: Buffer, origin = 'palimpsest.synthetic/log'): string {
  return signCheckpoint({ origin, size, root }, NAME, SYNTHETIC_KEY.privateKey, SYNTHETIC_KEY.publicKey).note;
}
