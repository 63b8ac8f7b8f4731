import { evolve } from '@palimpsest/core/candidate/candidate.decider';
import { candidateStreamId, upcastCandidateEvent, type OperationOutcome } from '@palimpsest/core/candidate/candidate.events';
import { refusal } from '@palimpsest/core/candidate/candidate-refusal';
import { initialCandidateState, writes, type CandidateState, type ExistingCandidate } from '@palimpsest/core/candidate/candidate.state';
import { DEFAULT_DIFF_BOUNDS, unifiedDiff } from '@palimpsest/core/candidate/line-diff';
import { semanticChanges, type OperationRef } from '@palimpsest/core/candidate/semantic-diff';
import { targetHeads } from '@palimpsest/projections/content/target-row.queries';
import type { Sql } from '@palimpsest/store/db';
import { readStream } from '@palimpsest/store/read-stream';
import type { AppContext } from '../../app-context';
import { readRefusal, asExisting } from '../shared/candidate-read';
import { candidateView, filesView } from '../shared/candidate-view';
import { checksOfVersion } from '../shared/checks-query';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { errorResult } from '../shared/envelope';
import { candidateTexts, type CandidateText } from '../shared/target-texts';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export type InspectPart = 'semantic_diff' | 'source_diff' | 'content' | 'checks';

export interface InspectInput {
  candidate: string;
  include?: InspectPart[];
  targets?: string[];
  context_lines?: number;
}

/** One target of the answer: what it changes, and the parts asked for. */
interface TargetPart {
  target_file_id: string;
  filename: string;
  change: 'modified' | 'unchanged';
  base_version: number;
  current_version: number | null;
  semantic_diff?: ReturnType<typeof semanticChanges>;
  source_diff?: ReturnType<typeof unifiedDiff>;
  content?: string;
}

const DEFAULT_PARTS: InspectPart[] = ['semantic_diff', 'source_diff', 'checks'];

/** The candidate folded from its stream, with every operation's outcome (for normalization flags). */
async function loadWithOutcomes(sql: Sql, id: string): Promise<{ state: CandidateState; outcomes: Map<string, OperationOutcome> }> {
  let state: CandidateState = initialCandidateState;
  const outcomes = new Map<string, OperationOutcome>();
  for (const s of await readStream(sql, candidateStreamId(id))) {
    const event = upcastCandidateEvent(s.type, s.schemaVersion, s.data);
    state = evolve(state, event);
    if (event.type === 'CandidateProposed' || event.type === 'CandidateExtended') {
      for (const o of event.data.operations) outcomes.set(`${event.data.version}:${o.index}`, o);
    }
  }
  return { state, outcomes };
}

/** What a candidate changes, per target. A read: it records nothing, not even an expiry it notices. */
export async function inspectChange(ctx: AppContext, input: InspectInput): Promise<Result<OP.palimpsest_change_inspect>> {
  const id = input.candidate.toLowerCase();
  const { state, outcomes } = await loadWithOutcomes(ctx.db, id);
  // Applied and discarded candidates stay readable; only an unknown or expired one is refused.
  const refused = readRefusal(state, id, ctx.clock.now(), 'inspect');
  if (refused && !(state.exists && (state.status === 'applied' || state.status === 'discarded'))) return errorResult(refused);
  const c = asExisting(state);
  const wanted = input.targets?.map((t) => t.toLowerCase()) ?? null;
  const unknown = wanted?.find((t) => !c.targets.some((m) => m.target_id === t));
  if (unknown) return errorResult(refusal('invalid_arguments', 'target_not_in_candidate', `Target ${unknown} is not part of candidate ${id}.`, { details: { target_file_id: unknown } }));
  const parts = new Set(input.include ?? DEFAULT_PARTS);
  const texts = (await candidateTexts(ctx.db, c, ctx.contents)).filter((t) => wanted === null || wanted.includes(t.target_id));
  const versions = new Map((await targetHeads(ctx.db, texts.map((t) => t.target_id))).map((r) => [r.target_id, r.version]));
  const normalized = (ref: OperationRef) => outcomes.get(`${ref.candidate_version}:${ref.index}`)?.normalized === true;
  return {
    status: 'ok',
    candidate: candidateView(c, ctx.clock.now()),
    files: filesView(c),
    targets: texts.map((t) => targetPart(c, t, versions.get(t.target_id) ?? null, parts, normalized, input.context_lines)),
    ...(parts.has('checks') ? { checks: await checksOfVersion(ctx.db, id, c.version) } : {}),
  };
}

function targetPart(
  c: ExistingCandidate,
  t: CandidateText,
  currentVersion: number | null,
  parts: Set<InspectPart>,
  normalized: (ref: OperationRef) => boolean,
  contextLines: number | undefined,
): TargetPart {
  const member = c.targets.find((m) => m.target_id === t.target_id)!;
  const out: TargetPart = {
    target_file_id: t.target_id,
    filename: t.filename,
    change: writes(member) ? 'modified' : 'unchanged',
    base_version: member.version,
    current_version: currentVersion,
  };
  if (parts.has('semantic_diff')) out.semantic_diff = semanticChanges(t.base, t.text, member.operations, normalized);
  if (parts.has('source_diff')) out.source_diff = unifiedDiff(t.base, t.text, { ...DEFAULT_DIFF_BOUNDS, context: contextLines ?? DEFAULT_DIFF_BOUNDS.context });
  if (parts.has('content')) out.content = t.text;
  return out;
}
