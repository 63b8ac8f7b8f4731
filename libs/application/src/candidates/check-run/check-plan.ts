import type { CheckOutcome } from '@palimpsest/core/candidate/candidate.commands';
import { refusal, type Refusal } from '@palimpsest/core/candidate/candidate-refusal';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { BUILTIN_CHECKS, type CommandCheckDef, type PolicyConfig } from '@palimpsest/core/policy/policy-config';
import { commandCheckRefusal } from '@palimpsest/core/policy/policy-decisions';
import type { CandidateText } from '../shared/target-texts';
import { isBuiltinCheck, runBuiltinCheck, type BuiltinCheck } from './builtin-checks';
import { runCommandCheck } from './command-check';

/** Which checks a request names, refused up front when unknown or not permitted by the caller's policy. */

export type PlannedCheck = { kind: 'builtin'; name: BuiltinCheck } | { kind: 'command'; def: CommandCheckDef };

export function planChecks(names: readonly string[], config: PolicyConfig, policy: OwnerPolicy): { ok: true; checks: PlannedCheck[] } | { ok: false; refusal: Refusal } {
  const checks: PlannedCheck[] = [];
  for (const name of [...new Set(names)]) {
    if (isBuiltinCheck(name)) {
      checks.push({ kind: 'builtin', name });
      continue;
    }
    const def = config.checks[name];
    if (!def) {
      const available = [...BUILTIN_CHECKS, ...Object.keys(config.checks)];
      return { ok: false, refusal: refusal('invalid_arguments', 'unknown_check', `No check named ${name}. Available: ${available.join(', ')}.`, { details: { check: name, available } }) };
    }
    const forbidden = commandCheckRefusal(policy, { name, shell: def.shell });
    if (forbidden) {
      return {
        ok: false,
        refusal: refusal('permission_denied', 'policy', `${forbidden.message} This is an answer: do not route around it.`, {
          details: { answer: 'FORBIDDEN', check: name, rule: forbidden.reason, policy: policy.name },
        }),
      };
    }
    checks.push({ kind: 'command', def });
  }
  return { ok: true, checks };
}

/** Runs the checks one after another (command checks may be heavy); never throws for a failing check. */
export async function runChecks(checks: PlannedCheck[], texts: CandidateText[], commandPath: string): Promise<CheckOutcome[]> {
  const results: CheckOutcome[] = [];
  for (const check of checks) {
    results.push(check.kind === 'builtin' ? runBuiltinCheck(check.name, texts) : await runCommandCheck(check.def, texts, commandPath));
  }
  return results;
}

export function checkView(r: CheckOutcome & { candidate_version?: number; recorded_at?: string }) {
  return {
    check: r.check,
    kind: r.kind,
    status: r.status,
    ok: r.ok,
    ...(r.reason === null ? {} : { reason: r.reason }),
    targets: r.targets.map(({ target_id, ...rest }) => ({ target_file_id: target_id, ...rest })),
    ...(r.output === null ? {} : { output: r.output }),
    duration_ms: r.duration_ms,
    ...(r.candidate_version === undefined ? {} : { candidate_version: r.candidate_version }),
    ...(r.recorded_at === undefined ? {} : { recorded_at: r.recorded_at }),
  };
}
