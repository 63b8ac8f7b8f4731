import { readProposalBody } from './parse-proposal';
import type { PlannedChange, ProposalInput } from './parse-proposal';
import { shapeFailure } from './field-checks';
import { applyReplacement } from './replacement';
import { SequentialBuffer } from './sequential-buffer';
import { applySpanChange } from './span-operations';
import type { StepEnv } from './step';
import { PROTOCOL, RUNTIME } from './transaction.types';
import type { ChangeAnnotation, ChangeFact, ProtocolVersion, TextChange, TxFailure, TxResult } from './transaction.types';
import { applyMatchChange } from './typed-match';
import { changeWarningInput, collectWarnings } from './warnings';
import type { ChangeWarningInput } from './warnings';

/** The observed target identity, echoed in exact-candidate diagnostics. */
export interface ApplyContext {
  observedVersion: number;
  observedHash: string;
}

export interface RecordedProposal {
  protocol_version: string;
  runtime_version: string;
  record: Record<string, unknown>;
}

/** Immutable runtime profiles: the only (protocol, runtime) pairs this engine will apply. */
const SUPPORTED_PROFILES: ReadonlyMap<string, ProtocolVersion> = new Map([
  [`${PROTOCOL.tx1}|${RUNTIME.typedMatch}`, PROTOCOL.tx1],
  [`${PROTOCOL.tx2}|${RUNTIME.spanOps}`, PROTOCOL.tx2],
  [`${PROTOCOL.tx2}|${RUNTIME.spanContext}`, PROTOCOL.tx2],
  [`${PROTOCOL.tx3}|${RUNTIME.replacement}`, PROTOCOL.tx3],
]);

const RECORD_FIELDS = new Set(['protocol_version', 'intent', 'edits', 'operations', 'replacement']);

/**
 * Apply a recorded proposal to canonical LF text. Live decisions and replay both come through here,
 * dispatching on the recorded (protocol, runtime) pair. Changes apply sequentially: each sees the
 * buffer left by the ones before it, and the first failure rejects the whole transaction.
 */
export function applyProposal(p: RecordedProposal, buffer: string, ctx?: ApplyContext): TxResult {
  const protocol = SUPPORTED_PROFILES.get(`${p.protocol_version}|${p.runtime_version}`);
  if (protocol === undefined || (p.record.protocol_version ?? protocol) !== protocol) {
    return reject(unsupportedProfile(p, 'This protocol and runtime profile pair is not supported.'), buffer);
  }
  const unknown = Object.keys(p.record).find((key) => !RECORD_FIELDS.has(key) && p.record[key] !== undefined);
  if (unknown !== undefined) {
    return reject(shapeFailure(protocol, 'unknown_field', unknown, `The record field ${unknown} is not known.`), buffer);
  }
  const read = readProposalBody(protocol, p.record as ProposalInput);
  if (!read.ok) return reject(read.failure, buffer);
  const { body } = read;
  if (body.protocol === PROTOCOL.tx3) return applyReplacement(buffer, body.replacement);
  if (body.protocol === PROTOCOL.tx2 && body.spanContext && p.runtime_version === RUNTIME.spanOps) {
    const detail = `${RUNTIME.spanOps} does not accept expected_before or expected_after; such records use ${RUNTIME.spanContext}.`;
    return reject(unsupportedProfile(p, detail), buffer);
  }
  return runSequential(protocol, body.changes, buffer, ctx);
}

function runSequential(format: ProtocolVersion, changes: readonly PlannedChange[], buffer: string, ctx?: ApplyContext): TxResult {
  const buf = new SequentialBuffer(buffer);
  const facts: ChangeFact[] = [];
  const annotations: ChangeAnnotation[] = [];
  const warningInputs: ChangeWarningInput[] = [];
  for (const change of changes) {
    const env: StepEnv = {
      format,
      changeId: change.change_id,
      changeIndex: change.change_index,
      observedVersion: ctx?.observedVersion ?? null,
      observedHash: ctx?.observedHash ?? null,
    };
    const step = change.kind === 'match' ? applyMatchChange(buf, change, env) : applySpanChange(buf, change, env);
    if (!step.ok) return { ok: false, ...step.failure };
    const { fact } = step;
    // Warning facts read the buffer before the change lands: its cuts and the earlier changes only.
    warningInputs.push(changeWarningInput(buf, change, step));
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
  return { ok: true, text: buf.text, facts, annotations, warnings, changed: changedRegion(buffer, buf) };
}

function unsupportedProfile(p: RecordedProposal, detail: string): TxFailure {
  const failure = shapeFailure(p.protocol_version, 'unsupported_profile', 'runtime_version', detail);
  failure.diagnostic.protocol_version = p.protocol_version;
  failure.diagnostic.runtime_version = p.runtime_version;
  return failure;
}

function reject(failure: TxFailure, buffer: string): TxResult {
  return { ok: false, ...failure, failing_buffer: buffer };
}

/** How much of the text is untouched at each end (UTF-16 units), so storage can skip those parts. */
function changedRegion(before: string, buf: SequentialBuffer): TextChange {
  if (!buf.dirty) return { unchangedPrefix: before.length, unchangedSuffix: 0 };
  return { unchangedPrefix: buf.dirty.start, unchangedSuffix: buf.text.length - buf.dirty.end };
}
