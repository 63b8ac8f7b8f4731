import type { CatalogOperation } from '../errors/error-model';
import { isRecord } from '../shared/is-record';
import { OP } from '../errors/operation-names.generated';
import { parseRuleEntries, type RuleExamples } from './command-rule-entries';

/**
 * Owner policy (seed 004): what a caller — an MCP profile or an API token — may see and do.
 *   mode    allow_all | allow_list | read_only: read_only refuses every write and every command;
 *           allow_list runs only the command checks and command lines named in `allow`.
 *   allow   command checks and command rules (`npm test`, `git status`) permitted under allow_list;
 *   deny    command checks and command rules (`rm -rf`) refused in every mode. An entry may be an object
 *           { rule, match, not_match } whose example lines are checked when the policy loads.
 *   shell   whether command checks declared with a shell command line, and command lines with shell
 *           syntax when no list is in force, may run.
 *   approve applies need a person's decision (palimpsest approvals …).
 *   tools   the operations the caller sees (null: all of them).
 * Addition: require_checks, checks every apply under this policy must have passed.
 */

export type PolicyMode = 'allow_all' | 'allow_list' | 'read_only';
export const POLICY_MODES: readonly PolicyMode[] = ['allow_all', 'allow_list', 'read_only'];

export interface OwnerPolicy {
  name: string | null;
  mode: PolicyMode;
  allow: string[];
  deny: string[];
  shell: boolean;
  approve: boolean;
  tools: string[] | null;
  require_checks: string[];
  /** Submissions without a `rebase` argument rebase a stale version guard (default false: refused as stale). */
  rebase?: boolean;
  /** Example lines of allow/deny entries, checked against the shell parser when the policy loads. */
  examples?: RuleExamples[];
}

export const ALLOW_ALL: OwnerPolicy = Object.freeze({
  name: 'full',
  mode: 'allow_all',
  allow: [],
  deny: [],
  shell: false,
  approve: false,
  tools: null,
  require_checks: [],
}) as OwnerPolicy;

export const READ_ONLY: OwnerPolicy = Object.freeze({ ...ALLOW_ALL, name: 'read-only', mode: 'read_only' }) as OwnerPolicy;

/**
 * The `files` profile: seed 004's five file tools as a drop-in for an agent written against it, plus the
 * reads that agent needs to see what its writes did: capabilities (limits, the workspace root, the
 * profile), the workspace status (which files are bound, drifted or pending), and a target's attempt log
 * and ledger (every write is an audited transaction; a refusal's diagnostics live there). Reads of a
 * target's text are left out: read_file is the file's text. Names not in the catalog are simply not
 * listed (edit_file and write_file arrive with their own issue).
 */
export const FILES_PROFILE_TOOLS: readonly string[] = Object.freeze([
  OP.grep,
  OP.list_files,
  OP.read_file,
  OP.edit_file,
  OP.write_file,
  OP.run_command,
  OP.start_command,
  OP.get_command_output,
  OP.send_command_input,
  OP.kill_command,
  OP.palimpsest_capabilities,
  OP.palimpsest_workspace_status,
  OP.palimpsest_get_attempt_log,
  OP.palimpsest_get_manifest_ledger,
] satisfies CatalogOperation[]);

export const FILES: OwnerPolicy = Object.freeze({ ...ALLOW_ALL, name: 'files', tools: [...FILES_PROFILE_TOOLS] }) as OwnerPolicy;

/** Profiles every installation has; a policy file may add others but not redefine these. */
export const BUILTIN_PROFILES: Readonly<Record<string, OwnerPolicy>> = { full: ALLOW_ALL, 'read-only': READ_ONLY, files: FILES };

const FIELDS = new Set(['mode', 'allow', 'deny', 'shell', 'approve', 'tools', 'require_checks', 'rebase']);

export type Parsed<T> = { ok: true; value: T } | { ok: false; problems: string[] };

const isNameList = (v: unknown): v is string[] => Array.isArray(v) && v.every((x) => typeof x === 'string' && x.length > 0 && x.length <= 128);

function list(input: Record<string, unknown>, key: string, problems: string[], where: string): string[] {
  const value = input[key];
  if (value === undefined || value === null) return [];
  if (!isNameList(value)) {
    problems.push(`${where}.${key} must be a list of names`);
    return [];
  }
  return [...new Set(value)];
}

function flag(input: Record<string, unknown>, key: string, problems: string[], where: string): boolean {
  const value = input[key];
  if (value === undefined) return false;
  if (typeof value !== 'boolean') problems.push(`${where}.${key} must be true or false`);
  return value === true;
}

/** Validate and normalize one policy object (seed 004's commandPolicy, defaults filled in). Unknown fields are refused. */
export function parsePolicy(input: unknown, name: string | null = null, where = 'policy'): Parsed<OwnerPolicy> {
  if (!isRecord(input)) return { ok: false, problems: [`${where} must be an object`] };
  const problems: string[] = Object.keys(input).filter((k) => !FIELDS.has(k)).map((k) => `${where}.${k} is not a policy field`);
  const mode = input.mode;
  if (!POLICY_MODES.includes(mode as PolicyMode)) problems.push(`${where}.mode must be one of ${POLICY_MODES.join(', ')}`);
  const tools = input.tools === undefined || input.tools === null ? null : list(input, 'tools', problems, where);
  const allow = parseRuleEntries('allow', input.allow, `${where}.allow`, problems);
  const deny = parseRuleEntries('deny', input.deny, `${where}.deny`, problems);
  const examples = [...allow.examples, ...deny.examples];
  const policy: OwnerPolicy = {
    name,
    mode: mode as PolicyMode,
    allow: allow.rules,
    deny: deny.rules,
    shell: flag(input, 'shell', problems, where),
    approve: flag(input, 'approve', problems, where),
    tools,
    require_checks: list(input, 'require_checks', problems, where),
    ...(flag(input, 'rebase', problems, where) ? { rebase: true } : {}),
    ...(examples.length ? { examples } : {}),
  };
  return problems.length ? { ok: false, problems } : { ok: true, value: policy };
}
