import { SNAPSHOT_CAPTURED } from '@palimpsest/core/snapshot/snapshot.events';
import type { JsonSchema } from '../catalog/operation-spec';
import { all, count, nullable, sha256, text, timestamp, uuid } from './event-schema-parts';
import { payloadSchemas } from './payload-schemas';

/**
 * JSON Schema (2020-12) of the snapshot stream's event (stream `snapshot-<digest>-<root dev>-<root ino>`),
 * schema version 1, published beside the other events under schemas/events/.
 */

const decimal = { type: 'string', pattern: '^(0|[1-9][0-9]*)$', description: 'A device or inode number, in decimal.' };

const file = all({
  path: { ...text, description: 'Relative to the root, components joined by /.' },
  sha256: { ...sha256, description: 'SHA-256 of the file\'s bytes.' },
  bytes: count,
  target_file_id: { ...nullable(uuid), description: 'The target the file was bound to, when its bytes were that target\'s version.' },
  version: nullable(count),
});

const PAYLOADS: Record<string, [string, JsonSchema]> = {
  [SNAPSHOT_CAPTURED]: ['The regular files under the workspace root were captured: each path with its digest, and the target version it held when bound. The handle is the Merkle root of the (path, digest) leaves.', all({
    snapshot: { type: 'string', pattern: '^sha256:[0-9a-f]{64}$' },
    root: all({ path: text, dev: decimal, ino: decimal }),
    files: { type: 'array', items: file, description: 'In path order (UTF-8 bytes).' },
    total_bytes: count,
    captured_at: timestamp,
  })],
};

export function snapshotEventSchemas(base: string): Record<string, JsonSchema> {
  return payloadSchemas(base, PAYLOADS);
}
