import { codePointLength, CodePointIndex } from '../text/code-points';
import { sha256Hex } from '../text/sha256';
import type { PlannedChange } from './parse-proposal';
import type { SequentialBuffer } from './sequential-buffer';
import { stepFailure, type StepEnv, type StepResult, type StepSuccess } from './step';
import { PROTOCOL, type TxFailure } from './transaction.types';

/**
 * The durable pair of a single-form observed submission (palimpsest_submit_observed_operations): tx/2
 * match/span operations bound to one recorded observation. The seed names only its batch pair
 * (patchdiff-observed-batch/1, -r1). The protocol stays patchdiff-tx/2 (the operations are tx/2, and the
 * released attempt event schemas enumerate the protocols); the runtime is the observed one, and the
 * record carries its `observation` link.
 */
export const OBSERVED_PROFILE = { protocol: PROTOCOL.tx2, runtime: 'palimpsest-observed-r1' } as const;

/** Every link of an observed record: what replay checks against the observation and its own buffer. */
export interface ObservationLink {
  observation_id: string;
  target_id: string;
  editing_cycle_id: string;
  target_version: number;
  target_hash: string;
  scope_start: number;
  scope_end: number;
  observed_scope_hash: string;
}

export const LINK_FIELDS: readonly (keyof ObservationLink)[] = [
  'observation_id',
  'target_id',
  'editing_cycle_id',
  'target_version',
  'target_hash',
  'scope_start',
  'scope_end',
  'observed_scope_hash',
];

const NUMERIC: ReadonlySet<string> = new Set(['target_version', 'scope_start', 'scope_end']);

/** The link of a stored record, or null when any field is missing or of the wrong type. */
export function readLink(value: unknown): ObservationLink | null {
  if (!value || typeof value !== 'object' || Array.isArray(value)) return null;
  const v = value as Record<string, unknown>;
  for (const field of LINK_FIELDS) {
    const ok = NUMERIC.has(field) ? Number.isSafeInteger(v[field]) && (v[field] as number) >= 0 : typeof v[field] === 'string';
    if (!ok) return null;
  }
  if ((v.scope_end as number) < (v.scope_start as number)) return null;
  return pickLink(v);
}

/** The link of an accepted record's stored content (JSON), or null when it is not an object holding a complete one. */
export function contentLink(content: string): ObservationLink | null {
  try {
    const value: unknown = JSON.parse(content);
    return value && typeof value === 'object' && !Array.isArray(value) ? readLink((value as { observation?: unknown }).observation) : null;
  } catch {
    return null;
  }
}

/** The link fields of a source already known to hold them (an observation event or row, a checked record). */
export function pickLink(source: { readonly [K in keyof ObservationLink]?: unknown }): ObservationLink {
  return Object.fromEntries(LINK_FIELDS.map((f) => [f, source[f]])) as unknown as ObservationLink;
}

/** Null when the link's scope is the buffer's [scope_start, scope_end) with the recorded hash. */
export function checkScopeEvidence(link: ObservationLink, index: CodePointIndex): string | null {
  if (link.scope_end > index.length) return `the observed scope [${link.scope_start}, ${link.scope_end}) lies outside the ${index.length} code points`;
  if (sha256Hex(index.slice(link.scope_start, link.scope_end)) !== link.observed_scope_hash) return 'the observed scope hash does not match the scope text';
  return null;
}

/** The running scope of a sequential transaction: its end moves with each change inside it. */
export interface RunningScope {
  start: number;
  end: number;
}

function outside(env: StepEnv, buf: SequentialBuffer, scope: RunningScope, start: number, end: number, detail: string) {
  const diagnostic = { code: 'OPERATION_OUTSIDE_OBSERVED_SCOPE', scope_start: scope.start, scope_end: scope.end, start, end };
  return stepFailure(env, buf, 'span_out_of_bounds', detail, diagnostic, start);
}

/**
 * A span checked before it runs: a nonempty span within [start, end) of the running scope; an insertion
 * strictly inside, with both adjacent guards non-empty and inside the scope.
 */
export function checkSpanInScope(change: PlannedChange, buf: SequentialBuffer, env: StepEnv, scope: RunningScope): StepResult | null {
  if (change.kind !== 'span') return null;
  const { start, end } = change;
  const range = `SPAN [${start}, ${end})`;
  const inScope = `the observed scope [${scope.start}, ${scope.end})`;
  if (start < end) {
    if (start < scope.start || end > scope.end) return outside(env, buf, scope, start, end, `${range} is not within ${inScope}.`);
    return null;
  }
  if (start <= scope.start || start >= scope.end) return outside(env, buf, scope, start, end, `An insertion at ${start} must lie strictly inside ${inScope}.`);
  if (!change.expected_before || !change.expected_after) {
    const diagnostic = { code: 'OBSERVED_INSERTION_GUARDS_REQUIRED', span_check: 'insertion_guards', scope_start: scope.start, scope_end: scope.end, start, end };
    return stepFailure(env, buf, 'span_expected_text_mismatch', `An insertion into an observed scope needs non-empty expected_before and expected_after.`, diagnostic, start);
  }
  const before = codePointLength(change.expected_before);
  const after = codePointLength(change.expected_after);
  if (start - before < scope.start || end + after > scope.end) {
    return outside(env, buf, scope, start, end, `The guards of the insertion at ${start} cross ${inScope}.`);
  }
  return null;
}

/** A resolved change (a match's span is known only now) checked against the running scope. */
export function checkResolvedInScope(step: StepSuccess, buf: SequentialBuffer, env: StepEnv, scope: RunningScope): StepResult | null {
  const { span_start: start, span_end: end } = step.fact;
  if (start >= scope.start && end <= scope.end && (start < end || (start > scope.start && start < scope.end))) return null;
  return outside(env, buf, scope, start, end, `The change at [${start}, ${end}) is not within the observed scope [${scope.start}, ${scope.end}).`);
}

/** The running scope after a change inside it. */
export function advanceScope(scope: RunningScope, step: StepSuccess): RunningScope {
  return { start: scope.start, end: scope.end + step.fact.replacement_chars - step.fact.matched_chars };
}

export function evidenceFailure(detail: string): TxFailure {
  return {
    failure_reason: 'protocol_invalid',
    failure_detail: `Observed evidence is missing or altered: ${detail}.`,
    failed_change_id: null,
    validation_stage: 'PROTOCOL_VALIDATION',
    diagnostic: { format: OBSERVED_PROFILE.protocol, code: 'observed_evidence_invalid' },
    prior_changes: 0,
    failing_buffer: '',
    location: null,
  };
}
