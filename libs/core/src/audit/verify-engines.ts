import { ReplayDivergence } from '../target/replay-divergence';
import { TargetReplay } from '../target/target-replay';
import type { BundleEvent } from './audit-bundle';

export interface EngineRerun {
  targets: number;
  acceptances: number;
}

export type EngineFailure = { kind: 'event'; global_position: number; stream_id: string; stream_version: number; reason: string };

const TARGET_STREAM = 'target-';

/**
 * The replay verifier, offline: every target stream of the bundle (whole, in version order: its chain
 * was checked first) folded from its effects, each acceptance's recorded engine re-run on the text it
 * applied to. Names the first event, in log order, whose effects or after_hash the engine does not reproduce.
 */
export function rerunEngines(streams: ReadonlyMap<string, readonly BundleEvent[]>): { rerun: EngineRerun; failure: EngineFailure | null } {
  const rerun: EngineRerun = { targets: 0, acceptances: 0 };
  const failures: EngineFailure[] = [];
  for (const [streamId, events] of streams) {
    if (!streamId.startsWith(TARGET_STREAM)) continue;
    rerun.targets++;
    const replay = new TargetReplay();
    for (const event of events) {
      try {
        replay.step({ type: event.type, schemaVersion: event.schema_version, data: event.data });
      } catch (error) {
        failures.push({ kind: 'event', global_position: event.global_position, stream_id: streamId, stream_version: event.stream_version, reason: reasonOf(error) });
        break;
      }
    }
    rerun.acceptances += replay.accepted;
  }
  const first = failures.sort((a, b) => a.global_position - b.global_position)[0] ?? null;
  return { rerun, failure: first };
}

function reasonOf(error: unknown): string {
  if (error instanceof ReplayDivergence) return `the recorded engine does not reproduce it: ${error.reason}`;
  return `the replay cannot read it: ${(error as Error).message}`;
}
