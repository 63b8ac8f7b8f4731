import {
  CHANGE_ID_PATTERN,
  FieldReader,
  MAX_SPAN_COORDINATE,
  ShapeError,
  describe,
  isPlainObject,
  shapeFailure,
  supplied,
} from './field-checks';
import { PROTOCOL, RUNTIME } from './transaction.types';
import type { ParsedProposal, ProtocolVersion, RuntimeVersion, TxFailure } from './transaction.types';

/**
 * Ledger numbering reserves five decimal digits for the change index inside one transaction,
 * so a transaction may hold at most 10,000 changes.
 */
export const MAX_CHANGES_PER_TRANSACTION = 10000;

export type Risk = 'low' | 'medium' | 'high';
const RISKS: readonly Risk[] = ['low', 'medium', 'high'];

interface ChangeMeta {
  change_id: string;
  change_index: number;
  rationale: string | null;
  risk: Risk | null;
}

/** A typed match (tx/1 edit or tx/2 {op:"match"}). Strings are raw: canonicalization happens at application. */
export interface MatchChange extends ChangeMeta {
  kind: 'match';
  match: string;
  replace: string;
  occurrence_index: number | null;
  anchor_before: string | null;
  anchor_after: string | null;
}

export interface SpanChange extends ChangeMeta {
  kind: 'span';
  start: number;
  end: number;
  expected_text: string;
  replace: string;
  expected_before: string | null;
  expected_after: string | null;
}

export type PlannedChange = MatchChange | SpanChange;

export type ProposalBody =
  | { protocol: typeof PROTOCOL.tx1; intent: string; changes: MatchChange[]; spanContext: false }
  | { protocol: typeof PROTOCOL.tx2; intent: string; changes: PlannedChange[]; spanContext: boolean }
  | { protocol: typeof PROTOCOL.tx3; intent: string; replacement: string };

export interface ProposalInput {
  intent?: unknown;
  edits?: unknown;
  operations?: unknown;
  replacement?: unknown;
}

const FORMAT_FIELD = {
  [PROTOCOL.tx1]: 'edits',
  [PROTOCOL.tx2]: 'operations',
  [PROTOCOL.tx3]: 'replacement',
} as const;
const PAYLOAD_FIELDS = ['edits', 'operations', 'replacement'] as const;

const META_KEYS = ['change_id', 'rationale', 'risk'];
const MATCH_KEYS = new Set(['match', 'replace', 'occurrence_index', 'anchor_before', 'anchor_after', ...META_KEYS]);
const SPAN_KEYS = new Set(['start', 'end', 'expected_text', 'replace', 'expected_before', 'expected_after', ...META_KEYS]);

export function defaultChangeId(position: number): string {
  return `chg_${String(position).padStart(3, '0')}`;
}

/** Strict shape validation of a fresh proposal; returns the exact record to store and its runtime profile. */
export function parseProposal(
  protocol: ProtocolVersion,
  input: ProposalInput,
): { ok: true; proposal: ParsedProposal } | { ok: false; failure: TxFailure } {
  const read = readProposalBody(protocol, input);
  if (!read.ok) return read;
  const { body, record } = read;
  return {
    ok: true,
    proposal: {
      protocol_version: body.protocol,
      runtime_version: runtimeFor(body),
      intent: body.intent,
      record,
      change_count: body.protocol === PROTOCOL.tx3 ? 1 : body.changes.length,
    },
  };
}

export function runtimeFor(body: ProposalBody): RuntimeVersion {
  if (body.protocol === PROTOCOL.tx1) return RUNTIME.typedMatch;
  if (body.protocol === PROTOCOL.tx3) return RUNTIME.replacement;
  return body.spanContext ? RUNTIME.spanContext : RUNTIME.spanOps;
}

/** Shape validation shared by fresh submissions and replay: the typed body plus the record to store. */
export function readProposalBody(
  protocol: ProtocolVersion,
  input: ProposalInput,
): { ok: true; body: ProposalBody; record: Record<string, unknown> } | { ok: false; failure: TxFailure } {
  try {
    const body = readBody(protocol, input);
    return { ok: true, body, record: recordOf(body, input) };
  } catch (err) {
    if (err instanceof ShapeError) return { ok: false, failure: err.failure };
    throw err;
  }
}

function readBody(protocol: ProtocolVersion, input: ProposalInput): ProposalBody {
  if (!(protocol in FORMAT_FIELD)) {
    throw new ShapeError(
      shapeFailure(protocol, 'unsupported_protocol', 'protocol_version', `Unsupported protocol version "${protocol}".`),
    );
  }
  if (!isPlainObject(input)) {
    throw new ShapeError(shapeFailure(protocol, 'invalid_type', '$', `The proposal must be an object; got ${describe(input)}.`));
  }
  const top = new FieldReader(input, protocol, '', null);
  const own = FORMAT_FIELD[protocol];
  for (const field of PAYLOAD_FIELDS) {
    if (field !== own && supplied(top.obj, field)) {
      top.fail('field_not_allowed_for_format', field, `${field} is not a field of ${protocol}; send ${own} instead.`);
    }
  }
  const intent = top.string('intent', { required: true }) as string;
  if (protocol === PROTOCOL.tx3) {
    return { protocol, intent, replacement: top.string('replacement', { required: true }) as string };
  }
  const field = protocol === PROTOCOL.tx1 ? 'edits' : 'operations';
  const items = readChangeArray(top, field);
  const changes = items.map((item, i) => readChange(protocol, item, `${field}[${i}]`, i + 1));
  rejectDuplicateIds(protocol, field, changes);
  if (protocol === PROTOCOL.tx1) return { protocol, intent, changes: changes as MatchChange[], spanContext: false };
  const spanContext = items.some(
    (item, i) => changes[i].kind === 'span' && (supplied(item, 'expected_before') || supplied(item, 'expected_after')),
  );
  return { protocol, intent, changes, spanContext };
}

function readChangeArray(top: FieldReader, field: 'edits' | 'operations'): Record<string, unknown>[] {
  if (!supplied(top.obj, field)) top.fail('missing_field', field, `${field} is required.`);
  const value = top.obj[field];
  if (!Array.isArray(value)) top.fail('invalid_type', field, `${field} must be an array; got ${describe(value)}.`);
  if (value.length === 0) top.fail('empty_changes', field, `${field} must contain at least one change.`);
  if (value.length > MAX_CHANGES_PER_TRANSACTION) {
    top.fail(
      'too_many_changes',
      field,
      `${field} holds ${value.length} changes; one transaction may hold at most ${MAX_CHANGES_PER_TRANSACTION}.`,
    );
  }
  value.forEach((item, i) => {
    if (!isPlainObject(item)) {
      top.fail('invalid_type', `${field}[${i}]`, `${field}[${i}] must be an object; got ${describe(item)}.`);
    }
  });
  return value as Record<string, unknown>[];
}

function readChange(protocol: ProtocolVersion, item: Record<string, unknown>, path: string, position: number): PlannedChange {
  const reader = new FieldReader(item, protocol, path, failureChangeId(item, position));
  if (protocol === PROTOCOL.tx1) {
    rejectForeignKeys(reader, MATCH_KEYS, SPAN_KEYS);
    return readMatch(reader, position);
  }
  const op = reader.string('op', { required: true });
  if (op === 'match') {
    rejectForeignKeys(reader, MATCH_KEYS, SPAN_KEYS);
    return readMatch(reader, position);
  }
  if (op === 'span') {
    rejectForeignKeys(reader, SPAN_KEYS, MATCH_KEYS);
    return readSpan(reader, position);
  }
  return reader.fail('invalid_op', 'op', `${reader.path('op')} must be "match" or "span"; got ${JSON.stringify(op)}.`);
}

function failureChangeId(item: Record<string, unknown>, position: number): string | null {
  const id = item.change_id;
  if (id === undefined || id === null) return defaultChangeId(position);
  return typeof id === 'string' && CHANGE_ID_PATTERN.test(id) ? id : null;
}

function rejectForeignKeys(reader: FieldReader, allowed: Set<string>, otherOp: Set<string>): void {
  const tx1 = reader.format === PROTOCOL.tx1;
  for (const key of Object.keys(reader.obj)) {
    if (allowed.has(key) || (key === 'op' && !tx1) || reader.obj[key] === undefined) continue;
    if (key === 'op') {
      reader.fail('field_not_allowed_for_format', key, `${reader.path(key)} is not a field of ${PROTOCOL.tx1} edits.`);
    }
    if (otherOp.has(key) && !tx1) {
      const kind = allowed === SPAN_KEYS ? 'span' : 'match';
      reader.fail('field_not_allowed_for_operation', key, `${reader.path(key)} is not allowed on a ${kind} operation.`);
    }
    reader.fail('unknown_field', key, `${reader.path(key)} is not a known field.`);
  }
}

function readMeta(reader: FieldReader, position: number): ChangeMeta {
  const id = reader.changeIdField();
  return {
    change_id: id ?? defaultChangeId(position),
    change_index: position,
    rationale: reader.string('rationale', { required: false, nullable: true }),
    risk: reader.oneOf('risk', RISKS),
  };
}

function readMatch(reader: FieldReader, position: number): MatchChange {
  const nullableAnchor = { required: false, nullable: true, nonEmpty: 'empty_string' };
  return {
    kind: 'match',
    match: reader.string('match', { required: true, nonEmpty: 'empty_match' }) as string,
    replace: reader.string('replace', { required: true }) as string,
    ...readMeta(reader, position),
    occurrence_index: reader.integer('occurrence_index', { required: false, min: 1, max: MAX_SPAN_COORDINATE }),
    anchor_before: reader.string('anchor_before', nullableAnchor),
    anchor_after: reader.string('anchor_after', nullableAnchor),
  };
}

function readSpan(reader: FieldReader, position: number): SpanChange {
  const coordinate = { required: true, min: 0, max: MAX_SPAN_COORDINATE };
  const start = reader.integer('start', coordinate) as number;
  const end = reader.integer('end', coordinate) as number;
  if (end < start) {
    reader.fail('span_end_before_start', 'end', `${reader.path('end')} (${end}) must be >= start (${start}).`);
  }
  const context = { required: false, nullable: true, nonEmpty: 'empty_string' };
  return {
    kind: 'span',
    start,
    end,
    expected_text: reader.string('expected_text', { required: true }) as string,
    replace: reader.string('replace', { required: true }) as string,
    ...readMeta(reader, position),
    expected_before: reader.string('expected_before', context),
    expected_after: reader.string('expected_after', context),
  };
}

/** Effective ids (explicit or defaulted) must be unique: ledger rows are keyed by them. */
function rejectDuplicateIds(protocol: ProtocolVersion, field: string, changes: PlannedChange[]): void {
  const seen = new Map<string, number>();
  for (const change of changes) {
    const first = seen.get(change.change_id);
    if (first !== undefined) {
      const path = `${field}[${change.change_index - 1}].change_id`;
      const detail = `${path} repeats change_id "${change.change_id}", already used by ${field}[${first - 1}].`;
      throw new ShapeError(shapeFailure(protocol, 'duplicate_change_id', path, detail, change.change_id));
    }
    seen.set(change.change_id, change.change_index);
  }
}

/** The stored record: the caller's own fields, raw, in the caller's key order. */
function recordOf(body: ProposalBody, input: ProposalInput): Record<string, unknown> {
  const record: Record<string, unknown> = { protocol_version: body.protocol, intent: body.intent };
  if (body.protocol === PROTOCOL.tx3) {
    record.replacement = body.replacement;
    return record;
  }
  const field = body.protocol === PROTOCOL.tx1 ? 'edits' : 'operations';
  const items = input[field] as Record<string, unknown>[];
  record[field] = items.map((item) => {
    const copy: Record<string, unknown> = {};
    for (const key of Object.keys(item)) if (item[key] !== undefined) copy[key] = item[key];
    return copy;
  });
  return record;
}
