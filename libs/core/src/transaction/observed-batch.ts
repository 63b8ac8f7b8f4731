import { CodePointIndex } from '../text/code-points';
import { isPlainObject, shapeFailure } from './field-checks';
import { checkScopeEvidence, evidenceFailure, LINK_FIELDS, readLink, type ObservationLink } from './observed-scope';
import { defaultChangeId, readProposalBody, type PlannedChange } from './parse-proposal';
import { runSequential, type ApplyContext } from './run-sequential';
import { normalizeEffects, type TextEffect } from './text-effect';
import { PROTOCOL } from './transaction.types';
import type { ChangeAnnotation, ChangeFact, RecordedProposal, TextChange, TxFailure, TxResult, TxSuccess, WarningDetail } from './transaction.types';

/**
 * The durable pair of an observed batch (the seed's patchdiff-observed-batch/1 / -r1). The event's
 * protocol_version column stays patchdiff-tx/2 (the released attempt event schemas enumerate the
 * protocols, as for the single form); the stored record names its own protocol, `record`.
 */
export const OBSERVED_BATCH_PROFILE = { protocol: PROTOCOL.tx2, runtime: 'palimpsest-observed-batch-r1', record: 'palimpsest-observed-batch/1' } as const;

export const MAX_BATCH_GROUPS = 32;
export const MAX_BATCH_OPERATIONS = 128;

/** A group's recorded link: the single form's, plus the bundle and the observation's ordinal in it. */
export interface BatchLink extends ObservationLink {
  bundle_id: string;
  ordinal: number;
}

export const BATCH_LINK_FIELDS: readonly (keyof BatchLink)[] = [...LINK_FIELDS, 'bundle_id', 'ordinal'];

/** One group as read: its observation (an id, or a recorded link) and its changes numbered across the batch. */
export interface BatchGroup<O> {
  group_index: number;
  observation: O;
  changes: PlannedChange[];
  /** The operations as the caller wrote them (what the record stores). */
  operations: Record<string, unknown>[];
}

type Read<T> = { ok: true; value: T } | { ok: false; failure: TxFailure };

const fmt = OBSERVED_BATCH_PROFILE.record;

export function batchShapeFailure(code: string, path: string, detail: string, extra: Record<string, unknown> = {}): TxFailure {
  const failure = shapeFailure(fmt, code, path, detail);
  Object.assign(failure.diagnostic, extra);
  return failure;
}

/**
 * The groups of a batch, fresh or recorded: 1-32 objects of exactly {<observation field>, operations},
 * each a valid tx/2 operation list; at most 128 operations in all, change ids unique across the batch.
 * `observationOf` reads a group's observation field (an id when fresh, a link when replayed).
 */
export function readGroups<O>(groups: unknown, field: string, observationOf: (value: unknown, groupIndex: number) => Read<O>, intent: unknown): Read<BatchGroup<O>[]> {
  if (!Array.isArray(groups) || groups.length < 1 || groups.length > MAX_BATCH_GROUPS) {
    return { ok: false, failure: batchShapeFailure('invalid_groups', 'groups', `groups must be an array of 1 to ${MAX_BATCH_GROUPS} groups.`) };
  }
  const out: BatchGroup<O>[] = [];
  const ids = new Set<string>();
  let offset = 0;
  for (const [i, group] of groups.entries()) {
    const at = { group_index: i };
    const unknown = isPlainObject(group) ? Object.keys(group).find((k) => k !== field && k !== 'operations' && group[k] !== undefined) : undefined;
    if (!isPlainObject(group) || unknown !== undefined) {
      const detail = unknown ? `groups[${i}].${unknown} is not a field of a group.` : `groups[${i}] must be an object {${field}, operations}.`;
      return { ok: false, failure: batchShapeFailure(unknown ? 'unknown_field' : 'invalid_type', `groups[${i}]`, detail, at) };
    }
    const observation = observationOf(group[field], i);
    if (!observation.ok) return observation;
    const read = readProposalBody(PROTOCOL.tx2, { intent, operations: group.operations });
    if (!read.ok) return { ok: false, failure: withGroup(read.failure, i, `groups[${i}].`) };
    if (read.body.protocol !== PROTOCOL.tx2) throw new Error('a tx/2 body was read as another format');
    const operations = read.record.operations as Record<string, unknown>[];
    const changes = read.body.changes.map((c, j) => renumber(c, operations[j]!, offset + j + 1));
    for (const [j, c] of changes.entries()) {
      if (ids.has(c.change_id)) {
        return { ok: false, failure: batchShapeFailure('duplicate_change_id', `groups[${i}].operations[${j}].change_id`, `change_id "${c.change_id}" is used twice in the batch.`, { ...at, operation_index: j }) };
      }
      ids.add(c.change_id);
    }
    offset += changes.length;
    if (offset > MAX_BATCH_OPERATIONS) {
      return { ok: false, failure: batchShapeFailure('too_many_operations', `groups[${i}].operations`, `A batch holds at most ${MAX_BATCH_OPERATIONS} operations in all.`, at) };
    }
    out.push({ group_index: i, observation: observation.value, changes, operations });
  }
  return { ok: true, value: out };
}

/** Changes are numbered across the whole batch (the ledger keys them by index); a default id follows. */
function renumber(change: PlannedChange, raw: Record<string, unknown>, index: number): PlannedChange {
  const explicit = raw.change_id !== undefined && raw.change_id !== null;
  return { ...change, change_index: index, change_id: explicit ? change.change_id : defaultChangeId(index) };
}

function withGroup(failure: TxFailure, groupIndex: number, prefix: string): TxFailure {
  const d = failure.diagnostic;
  if (d.path === 'intent') return failure; // the batch's one intent, not the group's
  const path = typeof d.path === 'string' ? prefix + d.path : d.path;
  const operation = typeof d.path === 'string' ? /^operations\[(\d+)\]/.exec(d.path) : null;
  const extra = operation ? { operation_index: Number(operation[1]) } : {};
  return { ...failure, diagnostic: { ...d, ...(path === undefined ? {} : { path }), group_index: groupIndex, ...extra } };
}

/** The link of a recorded group, or null when a field is missing, mistyped or not a batch link. */
export function readBatchLink(value: unknown): BatchLink | null {
  const link = readLink(value);
  if (!link) return null;
  const v = value as Record<string, unknown>;
  if (typeof v.bundle_id !== 'string' || !Number.isSafeInteger(v.ordinal) || (v.ordinal as number) < 1) return null;
  return { ...link, bundle_id: v.bundle_id, ordinal: v.ordinal as number };
}

/** The links of a recorded batch's content, or null when any group's is missing or incomplete. */
export function batchContentLinks(content: string): { bundle_id: unknown; links: BatchLink[] } | null {
  try {
    const value: unknown = JSON.parse(content);
    if (!isPlainObject(value) || !Array.isArray(value.groups)) return null;
    const links = value.groups.map((g) => (isPlainObject(g) ? readBatchLink(g.observation) : null));
    return links.every((l) => l !== null) ? { bundle_id: value.observation_bundle_id, links: links as BatchLink[] } : null;
  } catch {
    return null;
  }
}

const BATCH_FIELDS = new Set(['protocol_version', 'intent', 'observation_bundle_id', 'groups']);

/**
 * A recorded batch, live and in replay alike (no parser runs): every group's link must be complete,
 * of the record's bundle, and name a scope the buffer still holds with the recorded hash; the scopes
 * are disjoint. Each group runs in its own scope-local sequential buffer; the results are assembled
 * by descending original span, so a change's fact is its span in the text as its group applied.
 */
export function applyObservedBatch(p: RecordedProposal, buffer: string, ctx?: ApplyContext): TxResult {
  const fail = (failure: TxFailure, failing = buffer): TxResult => ({ ok: false, ...failure, failing_buffer: failing });
  if (p.protocol_version !== OBSERVED_BATCH_PROFILE.protocol || p.record.protocol_version !== fmt) {
    return fail(batchShapeFailure('unsupported_profile', 'runtime_version', 'This protocol and runtime profile pair is not supported.'));
  }
  const unknown = Object.keys(p.record).find((key) => !BATCH_FIELDS.has(key) && p.record[key] !== undefined);
  if (unknown !== undefined) return fail(evidenceFailure(`the record field ${unknown} is not known`));
  const bundleId = p.record.observation_bundle_id;
  const groups = readGroups(p.record.groups, 'observation', (value, i) => {
    const link = readBatchLink(value);
    if (!link) return { ok: false, failure: evidenceFailure(`group ${i} carries no complete observation link`) };
    if (link.bundle_id !== bundleId) return { ok: false, failure: evidenceFailure(`group ${i} links bundle ${link.bundle_id}, not the record's`) };
    return { ok: true, value: link };
  }, p.record.intent);
  if (!groups.ok) return fail(groups.failure);
  const index = new CodePointIndex(buffer);
  const bad = scopesProblem(groups.value, index);
  if (bad) return fail(evidenceFailure(bad));
  const descending = [...groups.value].sort((a, b) => b.observation.scope_start - a.observation.scope_start);
  const results: GroupResult[] = [];
  for (const group of descending) {
    const { scope_start: s, scope_end: e } = group.observation;
    const local = index.slice(s, e);
    const result = runSequential(PROTOCOL.tx2, group.changes, local, ctx, { start: 0, end: e - s });
    if (!result.ok) return { ...result, diagnostic: groupDiagnostic(result.diagnostic, group, result.failed_change_id) };
    results.push({ group, result, start: index.toUnit(s), end: index.toUnit(e) });
  }
  return assemble(buffer, results);
}

function scopesProblem(groups: BatchGroup<BatchLink>[], index: CodePointIndex): string | null {
  const seen = new Set<string>();
  for (const g of groups) {
    if (seen.has(g.observation.observation_id)) return `observation ${g.observation.observation_id} is linked by two groups`;
    seen.add(g.observation.observation_id);
    const bad = checkScopeEvidence(g.observation, index);
    if (bad) return `group ${g.group_index}: ${bad}`;
  }
  const sorted = groups.map((g) => g.observation).sort((a, b) => a.scope_start - b.scope_start);
  const overlap = sorted.findIndex((s, i) => i > 0 && s.scope_start < sorted[i - 1]!.scope_end);
  return overlap > 0 ? 'two groups link overlapping scopes' : null;
}

function groupDiagnostic(d: Record<string, unknown>, group: BatchGroup<BatchLink>, changeId: string | null): Record<string, unknown> {
  const j = group.changes.findIndex((c) => c.change_id === changeId);
  const { scope_start, scope_end } = group.observation;
  return { ...d, group_index: group.group_index, ...(j >= 0 ? { operation_index: j } : {}), observation_id: group.observation.observation_id, observed_scope: { scope_start, scope_end } };
}

interface GroupResult {
  group: BatchGroup<BatchLink>;
  result: TxSuccess;
  /** The scope's UTF-16 bounds in the original buffer. */
  start: number;
  end: number;
}

/** The groups' texts put in place (descending, so earlier offsets hold); facts absolute, in change order. */
function assemble(buffer: string, results: GroupResult[]): TxSuccess {
  let text = buffer;
  let unchangedPrefix = buffer.length;
  let unchangedSuffix = buffer.length;
  const facts: ChangeFact[] = [];
  const annotations: ChangeAnnotation[] = [];
  const warnings: WarningDetail[] = [];
  const effects: TextEffect[] = [];
  for (const { group, result, start, end } of results) {
    text = text.slice(0, start) + result.text + text.slice(end);
    const changed = result.changed ?? { unchangedPrefix: 0, unchangedSuffix: 0 };
    unchangedPrefix = Math.min(unchangedPrefix, start + changed.unchangedPrefix);
    unchangedSuffix = Math.min(unchangedSuffix, buffer.length - end + changed.unchangedSuffix);
    const s = group.observation.scope_start;
    effects.push(...result.effects.map((e) => ({ ...e, start: e.start + s, end: e.end + s })));
    facts.push(...result.facts.map((f) => ({ ...f, span_start: f.span_start + s, span_end: f.span_end + s })));
    annotations.push(...result.annotations);
    warnings.push(...result.warnings.filter((w) => w.code !== 'no_op_transaction').map((w) => shiftWarning(w, s)));
  }
  const byIndex = <T extends { change_index?: number }>(a: T, b: T) => (a.change_index ?? 0) - (b.change_index ?? 0);
  if (text === buffer) {
    warnings.push({
      code: 'no_op_transaction',
      detail: 'The transaction leaves the target text unchanged while the version still advances; a hash-only guard cannot detect this, so prefer a version guard.',
    });
  }
  const changed: TextChange = { unchangedPrefix: Math.min(unchangedPrefix, text.length), unchangedSuffix: Math.min(unchangedSuffix, text.length) };
  return { ok: true, text, facts: facts.sort(byIndex), annotations: annotations.sort(byIndex), warnings: stableByIndex(warnings), changed, effects: normalizeEffects(effects) };
}

function shiftWarning(w: WarningDetail, scopeStart: number): WarningDetail {
  return w.code === 'grapheme_boundary_split' && typeof w.offset === 'number' ? { ...w, offset: w.offset + scopeStart } : w;
}

/** Per-change warnings in change order (each group's are already ordered), no_op_transaction last. */
function stableByIndex(warnings: WarningDetail[]): WarningDetail[] {
  return warnings.map((w, i) => ({ w, i })).sort((a, b) => (a.w.change_index ?? Infinity) - (b.w.change_index ?? Infinity) || a.i - b.i).map(({ w }) => w);
}
