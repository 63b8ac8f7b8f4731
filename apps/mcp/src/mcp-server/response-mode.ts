import { observeScope, submitObservedOperations } from '@palimpsest/protocol/catalog/operations/scopes.operations';
import { isSubmission } from '@palimpsest/protocol/catalog/operations/submissions.operations';
import type { Success } from '@palimpsest/protocol/catalog/operation-types';
import type { AnyResult, Outcome } from '@palimpsest/protocol/outcome';
import type { OP } from '@palimpsest/core/errors/operation-names.generated';

const OBSERVED_SUBMISSION = submitObservedOperations.name;
const OBSERVE_SCOPE = observeScope.name;

export type ResponseMode = 'detailed' | 'compact';

export class InvalidResponseModeError extends Error {
  constructor(readonly value: string) {
    super(`PALIMPSEST_MCP_RESPONSE_MODE must be "detailed" or "compact" (got ${JSON.stringify(value)})`);
  }
}

/** Frozen at start-up; an unknown value refuses to start rather than guess. */
export function responseModeFrom(env: NodeJS.ProcessEnv): ResponseMode {
  const raw = env.PALIMPSEST_MCP_RESPONSE_MODE;
  if (raw === undefined || raw === '' || raw === 'detailed') return 'detailed';
  if (raw === 'compact') return 'compact';
  throw new InvalidResponseModeError(raw);
}

/** What a compact tool description adds, for the tools whose results it projects. */
export function compactNote(tool: string): string | null {
  if (tool === OBSERVED_SUBMISSION) return 'Compact: acceptance omits evidence and groups.';
  if (isSubmission(tool)) return 'Compact: acceptance omits evidence.';
  if (tool === OBSERVE_SCOPE) {
    return 'Compact: candidates keep name, kind, parent, lines; batch scopes drop page fields.';
  }
  return null;
}

/** What a compact answer says it left out. */
export type Presentation = { mode: 'compact'; omitted: string[] };

type Observed = Success<OP.palimpsest_observe_scope>;
type Candidate = NonNullable<Observed['candidates']>[number];
type CandidateSummary = Pick<Candidate, 'name' | 'kind' | 'parent' | 'start_line' | 'end_line'>;
type Scope = NonNullable<Observed['scopes']>[number];
/** An answer that may be an acceptance: a submission's, or a preview's (accepted or rejected). */
type Accepted = Extract<AnyResult, { status: 'accepted' }> | Extract<AnyResult, { preview: true }>;
/** T without the fields K, member by member of a union. */
type Without<T, K extends PropertyKey> = T extends unknown ? Omit<T, K> : never;

/** A compact answer: the detailed one without what it omits, and the presentation note saying what. */
export type CompactAnswer =
  | (Omit<Observed, 'candidates'> & { candidates: CandidateSummary[]; presentation: Presentation })
  | (Omit<Observed, 'scopes'> & { scopes: Scope[]; presentation: Presentation })
  | (Without<Accepted, 'evidence' | 'groups'> & { presentation: Presentation });

/** What a tool call answers over MCP: the operation's typed result, or its compact presentation. */
export type PresentedAnswer = AnyResult | CompactAnswer;

/** Each scope of a batch without start, end, max_chars, next_start, start_line and end_line (seed's table). */
const PAGE_DUPLICATES = ['start', 'end', 'max_chars', 'next_start', 'start_line', 'end_line'];

function compactObservation(result: Outcome): CompactAnswer | null {
  if (result.status === 'candidates' && Array.isArray(result.candidates) && result.candidates.length > 0) {
    const candidates = result.candidates.map(({ name, kind, parent, start_line, end_line }) => ({ name, kind, parent, start_line, end_line }));
    return { ...result, candidates, presentation: { mode: 'compact', omitted: ['candidate_details'] } };
  }
  if (result.status === 'observed_batch' && Array.isArray(result.scopes)) {
    const scopes = result.scopes.map((s) => Object.fromEntries(Object.entries(s).filter(([k]) => !PAGE_DUPLICATES.includes(k))));
    return { ...result, scopes, presentation: { mode: 'compact', omitted: ['duplicate_page_metadata'] } };
  }
  return null;
}

/** An acceptance without its evidence and (an observed batch's) groups, saying which it left out; null if it had neither. */
function compactAcceptance(result: Outcome): CompactAnswer | null {
  if (result.status !== 'accepted') return null;
  // Seed: omit evidence and groups (an observed batch's summaries) if present; only actual omissions are listed.
  const omitted = ACCEPTED_OMISSIONS.filter((field) => field in result);
  if (!omitted.length) return null;
  const presentation: Presentation = { mode: 'compact', omitted };
  if (!('evidence' in result)) return { ...result, presentation };
  const { evidence: _evidence, ...rest } = result;
  if (!('groups' in rest)) return { ...rest, presentation };
  const { groups: _groups, ...lean } = rest;
  return { ...lean, presentation };
}

/**
 * Compact presentation: accepted submissions drop their per-change evidence (the ledger keeps it) and an
 * observed batch its group summaries,
 * observe_scope's candidates and batches their repeated details, and say so. Failures, diagnostics,
 * single observations and pages, and every other result keep the detailed representation.
 */
export function presentResult(tool: string, result: Outcome, mode: ResponseMode): PresentedAnswer {
  if (mode === 'detailed') return result;
  if (tool === OBSERVE_SCOPE) return compactObservation(result) ?? result;
  if (!(isSubmission(tool) || tool === OBSERVED_SUBMISSION)) return result;
  return compactAcceptance(result) ?? result;
}

const ACCEPTED_OMISSIONS = ['evidence', 'groups'];
