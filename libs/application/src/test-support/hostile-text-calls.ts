import fc from 'fast-check';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import type { JsonSchema, OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';

/**
 * Calls that carry one hostile character in one string field of an otherwise valid call, for the
 * property "no operation answers an internal error for any text". Shared by the in-process int test
 * and the e2e transports: it knows the catalog and the fixture, not how a call travels.
 */

export type HostileKind = 'nul' | 'lone_surrogate' | 'noncharacter';

export const HOSTILE_CHARS: readonly { char: string; kind: HostileKind }[] = [
  { char: '\u0000', kind: 'nul' },
  { char: '\ud800', kind: 'lone_surrogate' },
  { char: '\udfff', kind: 'lone_surrogate' },
  { char: '\ufffe', kind: 'noncharacter' },
  { char: '\ufdd0', kind: 'noncharacter' },
  { char: '\uffff', kind: 'noncharacter' },
];

export const FIXTURE_TEXT = 'alpha beta alpha\n';
export const SIDE_TEXT = 'one two three\n';

/** A target the submissions and reads address, and an open candidate over a second target. */
export interface HostileFixture {
  target: string;
  version: number;
  side: string;
  sideVersion: number;
  candidate: string;
  candidateVersion: number;
}

/** Ids of the right shape: the fields a walk finds depend on the shape of the calls, not on the ids. */
export const SHAPE_FIXTURE: HostileFixture = {
  target: '00000000-0000-4000-8000-000000000001',
  version: 0,
  side: '00000000-0000-4000-8000-000000000002',
  sideVersion: 0,
  candidate: '00000000-0000-4000-8000-000000000003',
  candidateVersion: 1,
};

type Args = Record<string, unknown>;
type Path = (string | number)[];

let serial = 0;
const fresh = (prefix: string) => `${prefix}-${process.pid}-${++serial}`;

/** Minimal valid calls per operation; every optional string field is filled in by the walk. */
export function baseCalls(name: string, f: HostileFixture): Args[] {
  const t = f.target;
  const guards = { expected_target_version: f.version };
  const sideBase = [{ target_file_id: f.side, version: f.sideVersion }];
  const candidateOps: Args[] = [
    { kind: 'edit', target_file_id: f.side, match: 'two', replace: '2' },
    { kind: 'match', target_file_id: f.side, match: 'two', replace: '2' },
    { kind: 'span', target_file_id: f.side, start: 0, end: 3, expected_text: 'one', replace: '1' },
    { kind: 'replace_all', target_file_id: f.side, replacement: 'new\n' },
  ];
  const upload = { filename: 'doc.md', content: FIXTURE_TEXT, content_type: 'text/plain' };
  const edit = { match: 'beta', replace: 'gamma' };
  const span = { op: 'span', start: 6, end: 10, expected_text: 'beta', replace: 'gamma' };
  switch (name) {
    case 'palimpsest_initialize_target':
    case 'palimpsest_handle_upload':
      return [upload];
    case 'palimpsest_find_occurrences':
      return [{ target_file_id: t, text: 'alpha' }];
    case 'palimpsest_export_target':
      return [{ target_file_id: t, format: 'canonical_lf' }];
    case 'palimpsest_submit_edits':
      return [{ target_file_id: t, intent: 'rename', ...guards, edits: [edit] }];
    case 'palimpsest_submit_operations':
      return [{ target_file_id: t, intent: 'rename', ...guards, operations: [{ op: 'match', ...edit }, span] }];
    case 'palimpsest_submit_observed_operations':
      // An unknown observation: the hostile text is classified before the observation is looked up.
      return [{ target_file_id: t, intent: 'rename', ...guards, expected_current_hash: '0'.repeat(64), observation_id: '00000000-0000-4000-8000-000000000000', operations: [span] }];
    case 'palimpsest_submit_replacement':
      return [{ target_file_id: t, intent: 'rewrite', ...guards, replacement: 'new text\n' }];
    case 'palimpsest_preview':
      return [
        { target_file_id: t, format: 'patchdiff-tx/1', ...guards, intent: 'p', edits: [edit] },
        { target_file_id: t, format: 'patchdiff-tx/2', ...guards, intent: 'p', operations: [span] },
        { target_file_id: t, format: 'patchdiff-tx/3', ...guards, intent: 'p', replacement: 'x' },
      ];
    case 'palimpsest_save':
      return [{ target_file_id: t, ...guards }];
    case 'palimpsest_capabilities':
      return [{}];
    case 'palimpsest_change_propose':
      return candidateOps.map((op) => ({ request_id: fresh('propose'), base: sideBase, operations: [op] }));
    case 'palimpsest_edit_plan':
      return candidateOps.map((op) => ({ base: sideBase, operations: [op] }));
    case 'palimpsest_change_inspect':
      return [{ candidate: f.candidate }];
    case 'palimpsest_check_run':
      return [{ candidate: f.candidate, checks: ['utf8'] }];
    case 'palimpsest_change_apply':
      return [{ candidate: f.candidate, expected_candidate_version: f.candidateVersion, request_id: fresh('apply') }];
    case 'palimpsest_change_discard':
      return [{ candidate: f.candidate }];
    default:
      return [{ target_file_id: t }];
  }
}

/** Preview takes the fields of one format only: filling another format's field would test that rule instead. */
const SKIP_ABSENT: Record<string, readonly string[]> = {
  palimpsest_preview: ['edits', 'operations', 'replacement'],
};

export interface StringSlot {
  path: Path;
  /** The value the call already holds there, or null when the walk adds the field. */
  original: string | null;
  /** The field holds an array of strings that the walk adds. */
  asArray: boolean;
}

const types = (s: JsonSchema): string[] => (Array.isArray(s.type) ? (s.type as string[]) : s.type ? [s.type as string] : []);

function holdsString(s: JsonSchema): boolean {
  if (types(s).includes('string')) return true;
  if (typeof s.const === 'string') return true;
  return Array.isArray(s.enum) && s.enum.some((v) => typeof v === 'string');
}

function branchOf(s: JsonSchema, value: unknown): JsonSchema {
  const branches = s.oneOf as JsonSchema[] | undefined;
  if (!branches || value === null || typeof value !== 'object') return s;
  const v = value as Args;
  return (
    branches.find((b) =>
      Object.entries((b.properties as Record<string, JsonSchema>) ?? {}).every(([k, p]) => p.const === undefined || v[k] === p.const),
    ) ?? branches[0]
  );
}

/** Every string field of `schema`, walked alongside a valid value: nested objects, arrays and oneOf branches. */
export function stringSlots(schema: JsonSchema, value: unknown, path: Path = [], skipAbsent: readonly string[] = []): StringSlot[] {
  const s = branchOf(schema, value);
  if (typeof value === 'string') return holdsString(s) ? [{ path, original: value, asArray: false }] : [];
  if (Array.isArray(value)) {
    const items = (s.items as JsonSchema | undefined) ?? {};
    return value.flatMap((v, i) => stringSlots(items, v, [...path, i]));
  }
  if (value === null || typeof value !== 'object') return [];
  const v = value as Args;
  const slots: StringSlot[] = [];
  for (const [key, prop] of Object.entries((s.properties as Record<string, JsonSchema>) ?? {})) {
    if (key in v) slots.push(...stringSlots(prop, v[key], [...path, key]));
    else if (path.length === 0 && skipAbsent.includes(key)) continue;
    else if (holdsString(prop)) slots.push({ path: [...path, key], original: null, asArray: false });
    else if (types(prop).includes('array') && holdsString((prop.items as JsonSchema) ?? {})) {
      slots.push({ path: [...path, key], original: null, asArray: true });
    }
  }
  return slots;
}

/** A copy of `args` with `char` inserted at `at` (clamped) into the slot's string; an added field starts as "x". */
export function inject(args: Args, slot: StringSlot, char: string, at: number): Args {
  const copy = structuredClone(args);
  const base = slot.original ?? 'x';
  const pos = Math.min(at, base.length);
  const text = base.slice(0, pos) + char + base.slice(pos);
  let node: Args = copy;
  for (const key of slot.path.slice(0, -1)) node = node[key] as Args;
  node[slot.path[slot.path.length - 1]!] = slot.asArray ? [text] : text;
  return copy;
}

export interface HostileCase {
  op: OperationSpec;
  /** Which base call of the operation (index into baseCalls). */
  base: number;
  slot: StringSlot;
}

/** Every (operation, base call, string field) of the catalog, against a fixture's shape. */
export function hostileCases(f: HostileFixture): HostileCase[] {
  return CATALOG.flatMap((op) =>
    baseCalls(op.name, f).flatMap((args, base) =>
      stringSlots(op.params, args, [], SKIP_ABSENT[op.name] ?? []).map((slot) => {
        const c: HostileCase = { op, base, slot };
        // fast-check prints counterexamples with this instead of the whole operation spec.
        return Object.assign(c, { [fc.toStringMethod]: () => slotName(c) });
      }),
    ),
  );
}

export const slotName = (c: HostileCase): string => `${c.op.name}#${c.base}:${c.slot.path.join('.')}`;

/** The call for a case against the fixture as it is now (guards and keys are fresh each time). */
export function hostileCall(c: HostileCase, f: HostileFixture, char: string, at: number): Args {
  return inject(baseCalls(c.op.name, f)[c.base], c.slot, char, at);
}

export const hostileCharArb = fc.constantFrom(...HOSTILE_CHARS);
export const positionArb = fc.nat({ max: 12 });

export type Answer = Record<string, any>;
/** One call over some transport, answered with the operation's result object. */
export type Caller = (name: string, args: Args) => Promise<Answer>;

function must(answer: Answer, what: string): Answer {
  if (answer.status !== 'ok') throw new Error(`${what}: ${JSON.stringify(answer)}`);
  return answer;
}

/** Two targets and an open candidate over the second one, made through `call` itself. */
export async function createFixture(call: Caller): Promise<HostileFixture> {
  const target = must(await call('palimpsest_initialize_target', { filename: 'doc.md', content: FIXTURE_TEXT }), 'target');
  const side = must(await call('palimpsest_initialize_target', { filename: 'side.md', content: SIDE_TEXT }), 'side target');
  const proposed = must(
    await call('palimpsest_change_propose', {
      request_id: fresh('fixture'),
      base: [{ target_file_id: side.target_file_id, version: 0 }],
      operations: [{ kind: 'edit', target_file_id: side.target_file_id, match: 'two', replace: '2' }],
    }),
    'candidate',
  );
  return {
    target: target.target_file_id,
    version: 0,
    side: side.target_file_id,
    sideVersion: 0,
    candidate: proposed.candidate.id,
    candidateVersion: proposed.candidate.version,
  };
}

/**
 * A noncharacter is valid text, so some hostile edits are accepted: put the fixture text back, so
 * every later call is still otherwise valid against it.
 */
export async function restoreFixture(call: Caller, f: HostileFixture): Promise<void> {
  const now = await call('palimpsest_get_target', { target_file_id: f.target });
  if (now.current_content !== FIXTURE_TEXT) {
    const r = await call('palimpsest_submit_replacement', {
      target_file_id: f.target, intent: 'restore the fixture', expected_target_version: now.version, replacement: FIXTURE_TEXT,
    });
    if (r.status !== 'accepted') throw new Error(`restore: ${JSON.stringify(r)}`);
  }
  const after = await call('palimpsest_get_target', { target_file_id: f.target });
  f.version = after.version;
}
