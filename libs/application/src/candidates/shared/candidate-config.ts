/**
 * Candidate settings from the environment (read once at start, into the app context: candidate-settings.ts):
 *   PALIMPSEST_CANDIDATE_TTL_MS   how long an open candidate lives after its last proposal (default 24 h)
 *   APPROVAL_WAIT_MS              how long an apply waits for an operator's decision (default 90 s)
 *   PALIMPSEST_APPROVAL_POLL_MS   the polling fallback while waiting (default 1 s)
 *   PALIMPSEST_POLICY_FILE        the operator's policy document (profiles and command checks), YAML or JSON
 */
export interface CandidateConfig {
  ttlMs: number;
  approvalWaitMs: number;
  approvalPollMs: number;
  policyFile: string | null;
}

export const DEFAULTS = { ttlMs: 86_400_000, approvalWaitMs: 90_000, approvalPollMs: 1_000 } as const;

function positive(raw: string | undefined, fallback: number, name: string): number {
  if (raw === undefined || raw === '') return fallback;
  const value = Number(raw);
  if (!Number.isSafeInteger(value) || value < 1) throw new Error(`${name} must be a positive integer of milliseconds (got ${JSON.stringify(raw)})`);
  return value;
}

export function candidateConfig(env: Readonly<Record<string, string | undefined>>): CandidateConfig {
  return {
    ttlMs: positive(env.PALIMPSEST_CANDIDATE_TTL_MS, DEFAULTS.ttlMs, 'PALIMPSEST_CANDIDATE_TTL_MS'),
    approvalWaitMs: positive(env.APPROVAL_WAIT_MS, DEFAULTS.approvalWaitMs, 'APPROVAL_WAIT_MS'),
    approvalPollMs: positive(env.PALIMPSEST_APPROVAL_POLL_MS, DEFAULTS.approvalPollMs, 'PALIMPSEST_APPROVAL_POLL_MS'),
    policyFile: env.PALIMPSEST_POLICY_FILE ? env.PALIMPSEST_POLICY_FILE : null,
  };
}

export function expiresAt(now: string, ttlMs: number): string {
  return new Date(Date.parse(now) + ttlMs).toISOString();
}
