import type { PolicyConfig } from '@palimpsest/core/policy/policy-config';
import { loadPolicyConfig } from '../policy/policy-store';
import type { CandidateConfig } from './candidate-config';

/**
 * What candidate operations are configured with, read once when the app context is made (a process's
 * start): the lifetimes and waits of candidate-config.ts, the operator's policy document (profiles
 * and command checks) and the PATH command checks run with. An invalid value or document refuses to
 * start instead of failing calls later.
 */
export interface CandidateSettings {
  ttlMs: number;
  approvalWaitMs: number;
  approvalPollMs: number;
  policy: PolicyConfig;
  /** PALIMPSEST_POLICY_FILE, or null: where profiles named later (a token's, an MCP session's) are looked up. */
  policyFile: string | null;
  /** The PATH a command check runs with (the process's, else /usr/bin:/bin). */
  commandPath: string;
}

export function candidateSettings(config: CandidateConfig, commandPath: string): CandidateSettings {
  const { ttlMs, approvalWaitMs, approvalPollMs, policyFile } = config;
  return { ttlMs, approvalWaitMs, approvalPollMs, policy: loadPolicyConfig(policyFile), policyFile, commandPath };
}
