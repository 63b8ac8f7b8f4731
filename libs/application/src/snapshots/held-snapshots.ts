import type { RecordedSnapshot } from '@palimpsest/projections/workspace-snapshots/workspace-snapshot.queries';

/** File records the held captures may total (a capture holds at most 20,000): a bound on this process's memory. */
export const MAX_HELD_FILE_RECORDS = 200_000;

/**
 * Captures of `latest` made by read-only sessions, which record nothing: the handle is derived from the
 * content, so this process keeps each capture (keyed by its stream id, as a recorded one is) and reopens
 * the handle from here until it restarts. The least recently used captures go first.
 */
export class HeldSnapshots {
  private readonly held = new Map<string, RecordedSnapshot>();
  private records = 0;

  constructor(private readonly maxRecords = MAX_HELD_FILE_RECORDS) {}

  get(streamId: string): RecordedSnapshot | null {
    const found = this.held.get(streamId);
    if (!found) return null;
    this.held.delete(streamId);
    this.held.set(streamId, found);
    return found;
  }

  hold(streamId: string, snapshot: RecordedSnapshot): RecordedSnapshot {
    this.drop(streamId);
    this.held.set(streamId, snapshot);
    this.records += snapshot.data.files.length;
    for (const id of this.held.keys()) {
      if (this.records <= this.maxRecords || id === streamId) break;
      this.drop(id);
    }
    return snapshot;
  }

  private drop(streamId: string): void {
    const old = this.held.get(streamId);
    if (!old) return;
    this.held.delete(streamId);
    this.records -= old.data.files.length;
  }
}
