import type { PlannedChange } from './parse-proposal';
import { advanceScope, checkResolvedInScope, checkSpanInScope, type RunningScope } from './observed-scope';
import { SequentialBuffer } from './sequential-buffer';
import { applySpanChange } from './span-operations';
import type { StepEnv } from './step';
import type { ChangeAnnotation, ChangeFact, ProtocolVersion, TextChange, TxResult } from './transaction.types';
import { applyMatchChange } from './typed-match';
import { EffectComposer } from './text-effect';
import { changeWarningInput, collectWarnings } from './warnings';
import type { ChangeWarningInput } from './warnings';

/** The observed target identity, echoed in exact-candidate diagnostics. */
export interface ApplyContext {
  observedVersion: number;
  observedHash: string;
}

/**
 * Apply planned changes sequentially: each sees the buffer left by the ones before it, and the first
 * failure rejects the whole transaction. With `observed`, every change must stay inside that running scope.
 */
export function runSequential(format: ProtocolVersion, changes: readonly PlannedChange[], buffer: string, ctx?: ApplyContext, observed?: RunningScope): TxResult {
  let scope = observed ?? null;
  const buf = new SequentialBuffer(buffer);
  const facts: ChangeFact[] = [];
  const annotations: ChangeAnnotation[] = [];
  const warningInputs: ChangeWarningInput[] = [];
  const effects = new EffectComposer();
  for (const change of changes) {
    const env: StepEnv = {
      format,
      changeId: change.change_id,
      changeIndex: change.change_index,
      observedVersion: ctx?.observedVersion ?? null,
      observedHash: ctx?.observedHash ?? null,
    };
    const early = scope ? checkSpanInScope(change, buf, env, scope) : null;
    if (early && !early.ok) return { ok: false, ...early.failure };
    const step = change.kind === 'match' ? applyMatchChange(buf, change, env) : applySpanChange(buf, change, env);
    if (!step.ok) return { ok: false, ...step.failure };
    const late = scope ? checkResolvedInScope(step, buf, env, scope) : null;
    if (late && !late.ok) return { ok: false, ...late.failure };
    if (scope) scope = advanceScope(scope, step);
    const { fact } = step;
    // Warning facts read the buffer before the change lands: its cuts and the earlier changes only.
    warningInputs.push(changeWarningInput(buf, change, step));
    effects.record(fact.span_start, fact.span_end, step.replacement, (from, to) => buf.text.slice(buf.toUnit(from), buf.toUnit(to)));
    buf.replace(step.unitStart, step.unitEnd, step.replacement, {
      change_id: fact.change_id,
      change_index: fact.change_index,
      start: fact.span_start,
      end: fact.span_end,
      replacement_chars: fact.replacement_chars,
    });
    facts.push(fact);
    annotations.push({ change_id: change.change_id, change_index: change.change_index, rationale: change.rationale, risk: change.risk });
  }
  const warnings = collectWarnings({ changes: warningInputs, before: buffer, after: buf.text, dirty: buf.dirty });
  return { ok: true, text: buf.text, facts, annotations, warnings, changed: changedRegion(buffer, buf), effects: effects.effects };
}

/** How much of the text is untouched at each end (UTF-16 units), so storage can skip those parts. */
function changedRegion(before: string, buf: SequentialBuffer): TextChange {
  if (!buf.dirty) return { unchangedPrefix: before.length, unchangedSuffix: 0 };
  return { unchangedPrefix: buf.dirty.start, unchangedSuffix: buf.text.length - buf.dirty.end };
}
