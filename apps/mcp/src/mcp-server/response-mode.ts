import { isSubmission } from '@palimpsest/protocol/catalog/operations/submissions.operations';
import type { Outcome } from '@palimpsest/protocol/outcome';

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

/**
 * Compact presentation: accepted submissions drop their per-change evidence (the ledger keeps it) and
 * say so. Failures, diagnostics and every other result keep the detailed representation.
 */
export function presentResult(tool: string, result: Outcome, mode: ResponseMode): Outcome {
  if (mode === 'detailed' || !isSubmission(tool) || result.status !== 'accepted' || !('evidence' in result)) {
    return result;
  }
  const { evidence: _omitted, ...rest } = result;
  return { ...rest, presentation: { mode: 'compact', omitted: ['evidence'] } };
}
