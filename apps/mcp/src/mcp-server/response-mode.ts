import { observeScope, submitObservedOperations } from '@palimpsest/protocol/catalog/operations/scopes.operations';
import { isSubmission } from '@palimpsest/protocol/catalog/operations/submissions.operations';
import type { Outcome, WireAnswer } from '@palimpsest/protocol/outcome';

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

type Fields = Record<string, unknown>;

/** Each scope of a batch without start, end, max_chars, next_start, start_line and end_line (seed's table). */
const PAGE_DUPLICATES = ['start', 'end', 'max_chars', 'next_start', 'start_line', 'end_line'];

function compactObservation(result: Outcome): WireAnswer | null {
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

/**
 * Compact presentation: accepted submissions drop their per-change evidence (the ledger keeps it) and an
 * observed batch its group summaries,
 * observe_scope's candidates and batches their repeated details, and say so. Failures, diagnostics,
 * single observations and pages, and every other result keep the detailed representation.
 */
export function presentResult(tool: string, result: Outcome, mode: ResponseMode): WireAnswer {
  if (mode === 'detailed') return result;
  if (tool === OBSERVE_SCOPE) return compactObservation(result) ?? result;
  if (!(isSubmission(tool) || tool === OBSERVED_SUBMISSION) || result.status !== 'accepted') return result;
  // Seed: omit evidence and groups (an observed batch's summaries) if present; only actual omissions are listed.
  const omitted = ACCEPTED_OMISSIONS.filter((field) => field in result);
  if (!omitted.length) return result;
  const rest = Object.fromEntries(Object.entries(result).filter(([k]) => !omitted.includes(k)));
  return { ...rest, status: result.status, presentation: { mode: 'compact', omitted } };
}

const ACCEPTED_OMISSIONS = ['evidence', 'groups'];
