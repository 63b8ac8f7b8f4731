import { loadCommandRun, unsettledRuns, type UnsettledRun } from '@palimpsest/projections/command-runs/command-run-store';
import { currentBoot, groupMembers, groupsMarked, killGroup, processIdentity, type GroupKill } from '@palimpsest/workspace/process/process-group';
import { RUN_MARKER_VARIABLE } from '@palimpsest/workspace/process/process-launcher';
import type { AppContext } from '../../app-context';
import { RunRecord } from '../shared/run-record';

export interface SettledRun {
  run_id: string;
  command: string;
  outcome: GroupKill;
}

/**
 * Whether the group a run recorded is still that run's: its leader has the recorded identity, or the
 * leader is gone and members remain in the same boot (the kernel does not reuse a pid while a group of
 * that id has members, so the members are the ones the leader started).
 */
function stillOurs(run: UnsettledRun & { pgid: number }): boolean {
  if (run.leader === null) return false;
  const leader = processIdentity(run.pgid);
  if (leader !== null) return leader === run.leader;
  return run.leader.startsWith(`${currentBoot()}:`) && groupMembers(run.pgid).length > 0;
}

const WORST: GroupKill[] = ['killed', 'terminated', 'gone'];

/** Stops the run's recorded group (when still the run's), or, with no start recorded, the groups carrying its marker. */
async function stopGroups(run: UnsettledRun): Promise<{ outcome: GroupKill; pgid: number | null }> {
  if (run.pgid !== null) return { outcome: stillOurs({ ...run, pgid: run.pgid }) ? await killGroup(run.pgid) : 'gone', pgid: run.pgid };
  const groups = groupsMarked(RUN_MARKER_VARIABLE, run.run_id);
  const outcomes = await Promise.all(groups.map((g) => killGroup(g)));
  const worst = WORST.findIndex((o) => outcomes.includes(o));
  return { outcome: worst < 0 ? 'gone' : WORST[worst], pgid: groups[0] ?? null };
}

/**
 * At start, before any tool runs: every run a killed service left open has its group killed (when the
 * group is still the run's) and the run settled on the record with CommandKilled (crash_cleanup): the
 * outcome is unknown, nothing recorded its exit. `say` tells the operator what happened to each run.
 */
export async function settleRunsLeftByACrash(ctx: AppContext, say: (line: string) => void = () => undefined): Promise<SettledRun[]> {
  const settled: SettledRun[] = [];
  for (const run of await unsettledRuns(ctx.db)) {
    const { outcome, pgid } = await stopGroups(run);
    const loaded = await loadCommandRun(ctx.db, run.run_id);
    const record = new RunRecord(ctx, run.run_id, { command: 'RecordKill', cleanup: 'crash' }, loaded);
    await record.record({ type: 'RecordKill', reason: 'crash_cleanup', outcome });
    const what = outcome === 'gone' ? 'its processes were already gone' : `its process group ${pgid} was ${outcome}`;
    say(`command run ${run.run_id} (${JSON.stringify(run.command)}) was running when the service stopped: outcome unknown at crash; ${what}`);
    settled.push({ run_id: run.run_id, command: run.command, outcome });
  }
  return settled;
}
