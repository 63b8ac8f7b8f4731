import { loadCommandRun, unsettledRuns, type UnsettledRun } from '@palimpsest/projections/command-runs/command-run-store';
import { currentBoot, groupMembers, killGroup, processIdentity, type GroupKill } from '@palimpsest/workspace/process/process-group';
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
function stillOurs(run: UnsettledRun): boolean {
  if (run.leader === null) return false;
  const leader = processIdentity(run.pgid);
  if (leader !== null) return leader === run.leader;
  return run.leader.startsWith(`${currentBoot()}:`) && groupMembers(run.pgid).length > 0;
}

/**
 * At start, before any tool runs: every run a killed service left open has its group killed (when the
 * group is still the run's) and the run settled on the record with CommandKilled (crash_cleanup): the
 * outcome is unknown, nothing recorded its exit. `say` tells the operator what happened to each run.
 */
export async function settleRunsLeftByACrash(ctx: AppContext, say: (line: string) => void = () => undefined): Promise<SettledRun[]> {
  const settled: SettledRun[] = [];
  for (const run of await unsettledRuns(ctx.db)) {
    const outcome: GroupKill = stillOurs(run) ? await killGroup(run.pgid) : 'gone';
    const loaded = await loadCommandRun(ctx.db, run.run_id);
    const record = new RunRecord(ctx, run.run_id, { command: 'RecordKill', cleanup: 'crash' }, loaded);
    await record.record({ type: 'RecordKill', reason: 'crash_cleanup', outcome });
    const what = outcome === 'gone' ? 'its processes were already gone' : `its process group ${run.pgid} was ${outcome}`;
    say(`command run ${run.run_id} (${JSON.stringify(run.command)}) was running when the service stopped: outcome unknown at crash; ${what}`);
    settled.push({ run_id: run.run_id, command: run.command, outcome });
  }
  return settled;
}
