import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { relocateRange as relocate } from '@palimpsest/core/rebase/range-relocation';
import { targetHeads } from '@palimpsest/projections/content/target-row.queries';
import { findObservation } from '@palimpsest/projections/observations.queries';
import type { AppContext } from '../app-context';
import { notFound, targetIdOf } from '../shared/target-lookup';
import { asStep, effectStepsSince } from './effect-history';

export interface RelocateRangeInput {
  target_file_id?: string | null;
  version?: number | null;
  start?: number | null;
  end?: number | null;
  observation_id?: string | null;
}

type Read = { targetId: string; version: number; start: number; end: number };

async function rangeOf(ctx: AppContext, input: RelocateRangeInput) {
  if (input.observation_id != null) {
    const o = await findObservation(ctx.db, input.observation_id.toLowerCase());
    if (!o) return invalidArgument('observation_not_found', `No observation ${input.observation_id}.`, { argument: 'observation_id' });
    return { targetId: o.target_id, version: o.target_version, start: o.scope_start, end: o.scope_end } satisfies Read;
  }
  const parsed = targetIdOf(input.target_file_id);
  if (parsed.error) return parsed.error;
  const { version, start, end } = input;
  if (version == null || start == null || end == null || end < start) {
    return invalidArgument('invalid_range', 'Send version, start and end (end ≥ start, code points), or an observation_id.', { argument: 'start' });
  }
  return { targetId: parsed.id, version, start, end } satisfies Read;
}

/**
 * palimpsest_relocate_range: a range read at one version carried through the effects of every later
 * acceptance (the pure mapping of libs/core/src/rebase), answering where it is now and who touched it.
 */
export async function relocateRange(ctx: AppContext, input: RelocateRangeInput) {
  const read = await rangeOf(ctx, input);
  if ('status' in read) return read;
  const [head] = await targetHeads(ctx.db, [read.targetId]);
  if (!head) return notFound(read.targetId);
  if (read.version > head.version) {
    return invalidArgument('version_ahead', `version ${read.version} is ahead of the target's version ${head.version}.`, { argument: 'version', target_file_id: head.target_id });
  }
  const steps = await effectStepsSince(ctx.db, head.target_id, read.version, head.version);
  const found = relocate({ start: read.start, end: read.end }, steps.map(asStep));
  return {
    status: 'ok' as const,
    target_file_id: head.target_id,
    from: { version: read.version, start: read.start, end: read.end },
    version: steps.length ? steps[steps.length - 1]!.after_version : read.version,
    start: found.start,
    end: found.end,
    relocation: found.status,
    touched_by: found.touched_by,
  };
}
