import type { PolicyConfig } from '@palimpsest/core/policy/policy-config';
import { loadPolicyConfig } from '../policy/policy-store';
import { candidateConfig } from './candidate-config';

/**
 * What candidate operations are configured with, read once when the app context is made (a process's
 * start): the lifetimes and waits of candidate-config.ts and the operator's policy document (profiles
 * and command checks). An invalid value or document refuses to start instead of failing calls later.
 */
export interface CandidateSettings {
  ttlMs: number;
  approvalWaitMs: number;
  approvalPollMs: number;
  policy: PolicyConfig;
}

export function candidateSettings(env: NodeJS.ProcessEnv = process.env): CandidateSettings {
  const { ttlMs, approvalWaitMs, approvalPollMs } = candidateConfig(env);
  return { ttlMs, approvalWaitMs, approvalPollMs, policy: loadPolicyConfig(env) };
}
