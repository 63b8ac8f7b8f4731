import type { RecordedSnapshot } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';
import { HeldSnapshots } from './held-snapshots';

const capture = (id: string, files: number): RecordedSnapshot => ({
  position: 7,
  data: {
    snapshot: `sha256:${id.padStart(64, '0')}`,
    root: { path: '/w', dev: '1', ino: '2' },
    files: Array.from({ length: files }, (_, i) => ({ path: `f${i}`, sha256: '0'.repeat(64), bytes: 1, target_file_id: null, version: null })),
    total_bytes: files,
    captured_at: '2026-12-07T00:00:00.000Z',
  },
});

describe('HeldSnapshots', () => {
  it('keeps captures by stream id within its file-record bound, dropping the least recently used first', () => {
    const held = new HeldSnapshots(10);
    held.hold('a', capture('a', 4));
    held.hold('b', capture('b', 4));
    expect(held.get('a')?.data.files).toHaveLength(4); // a is now the most recently used
    held.hold('c', capture('c', 4));
    expect(held.get('b')).toBeNull();
    expect(held.get('a')).not.toBeNull();
    expect(held.get('c')).not.toBeNull();
  });

  it('keeps the newest capture even when it alone exceeds the bound', () => {
    const held = new HeldSnapshots(3);
    held.hold('a', capture('a', 2));
    held.hold('big', capture('big', 5));
    expect(held.get('a')).toBeNull();
    expect(held.get('big')?.data.files).toHaveLength(5);
  });

  it('replaces a capture held again under the same stream id without counting it twice', () => {
    const held = new HeldSnapshots(8);
    held.hold('a', capture('a', 4));
    held.hold('a', capture('a', 4));
    held.hold('b', capture('b', 4));
    expect(held.get('a')).not.toBeNull();
    expect(held.get('b')).not.toBeNull();
  });
});
