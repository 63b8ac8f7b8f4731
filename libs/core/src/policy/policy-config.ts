import { isRecord } from '../shared/is-record';
import { BUILTIN_PROFILES, parsePolicy, type OwnerPolicy, type Parsed } from './owner-policy';

/**
 * The operator's policy document (YAML or JSON, parsed by the caller): named profiles and the
 * command checks an installation offers. An allow/deny entry names a command check or a command rule
 * (`npm test`, `rm -rf`: a program and its arguments as plain words); written as an object it carries
 * example lines the rule must and must not match, checked when the command gate loads the document.
 *
 *   profiles:
 *     reviewed: { mode: allow_list, allow: [wc], approve: true }
 *     agent:
 *       mode: allow_list
 *       allow: [npm test, git status, git diff]
 *       deny:
 *         - { rule: rm -rf, match: ["rm -fr dist", "rm --recursive --force x"], not_match: ["rm -r x"] }
 *   checks:
 *     wc: { argv: [wc, -l, "{files}"], timeout_ms: 5000 }
 *     lint: { command: "markdownlint {files} | head", shell: true }
 */

export const BUILTIN_CHECKS = ['utf8', 'json', 'yaml'] as const;
export const CHECK_NAME = /^[a-z0-9][a-z0-9_.-]{0,63}$/;
export const COMMAND_TIMEOUT_MS = { default: 60_000, max: 300_000 } as const;
export const COMMAND_OUTPUT_BYTES = { default: 65_536, max: 200_000 } as const;

export interface CommandCheckDef {
  name: string;
  /** argv form: run directly, no shell. `{files}` expands to the candidate's files, `{dir}` to their directory. */
  argv: string[] | null;
  /** Shell form (needs `shell: true` here and in the caller's policy). */
  command: string | null;
  shell: boolean;
  timeout_ms: number;
  max_output_bytes: number;
  /** Only targets with these filename extensions (".md") or content types; null: every target. */
  extensions: string[] | null;
  content_types: string[] | null;
}

export interface PolicyConfig {
  profiles: Record<string, OwnerPolicy>;
  checks: Record<string, CommandCheckDef>;
}

export const EMPTY_POLICY_CONFIG: PolicyConfig = { profiles: { ...BUILTIN_PROFILES }, checks: {} };

const CHECK_FIELDS = new Set(['argv', 'command', 'shell', 'timeout_ms', 'max_output_bytes', 'extensions', 'content_types']);

function bounded(value: unknown, limits: { default: number; max: number }, where: string, problems: string[]): number {
  if (value === undefined) return limits.default;
  if (typeof value !== 'number' || !Number.isInteger(value) || value < 1 || value > limits.max) {
    problems.push(`${where} must be an integer from 1 to ${limits.max}`);
    return limits.default;
  }
  return value;
}

function names(value: unknown, where: string, problems: string[]): string[] | null {
  if (value === undefined || value === null) return null;
  if (!Array.isArray(value) || !value.every((v) => typeof v === 'string' && v.length > 0)) {
    problems.push(`${where} must be a list of strings`);
    return null;
  }
  return value as string[];
}

export function parseCommandCheck(name: string, input: unknown, problems: string[]): CommandCheckDef | null {
  const where = `checks.${name}`;
  if (!CHECK_NAME.test(name) || (BUILTIN_CHECKS as readonly string[]).includes(name)) {
    problems.push(`${where}: a command check needs a lowercase name that is not a built-in check (${BUILTIN_CHECKS.join(', ')})`);
  }
  if (!isRecord(input)) {
    problems.push(`${where} must be an object`);
    return null;
  }
  for (const key of Object.keys(input)) if (!CHECK_FIELDS.has(key)) problems.push(`${where}.${key} is not a check field`);
  const argv = names(input.argv, `${where}.argv`, problems);
  const command = typeof input.command === 'string' && input.command.trim() !== '' ? input.command : null;
  const shell = input.shell === true;
  if ((argv === null) === (command === null)) problems.push(`${where} needs exactly one of argv (a program and its arguments) or command (a shell line)`);
  if (command !== null && !shell) problems.push(`${where}.command is a shell line: declare shell: true, or use argv`);
  if (argv !== null && shell) problems.push(`${where}: shell applies to command only; argv never runs through a shell`);
  return {
    name,
    argv,
    command,
    shell,
    timeout_ms: bounded(input.timeout_ms, COMMAND_TIMEOUT_MS, `${where}.timeout_ms`, problems),
    max_output_bytes: bounded(input.max_output_bytes, COMMAND_OUTPUT_BYTES, `${where}.max_output_bytes`, problems),
    extensions: names(input.extensions, `${where}.extensions`, problems),
    content_types: names(input.content_types, `${where}.content_types`, problems),
  };
}

/** Validate a whole policy document; every problem is reported, none is guessed around. */
export function parsePolicyConfig(doc: unknown): Parsed<PolicyConfig> {
  if (doc === null || doc === undefined) return { ok: true, value: EMPTY_POLICY_CONFIG };
  if (!isRecord(doc)) return { ok: false, problems: ['the policy document must be a mapping with profiles and checks'] };
  const problems = Object.keys(doc).filter((k) => k !== 'profiles' && k !== 'checks').map((k) => `${k} is not a policy document section`);
  const profiles: Record<string, OwnerPolicy> = { ...BUILTIN_PROFILES };
  const checks: Record<string, CommandCheckDef> = {};
  for (const [name, raw] of Object.entries(isRecord(doc.profiles) ? doc.profiles : {})) {
    if (name in BUILTIN_PROFILES) {
      problems.push(`profiles.${name}: ${Object.keys(BUILTIN_PROFILES).join(' and ')} are built in and cannot be redefined`);
      continue;
    }
    const parsed = parsePolicy(raw, name, `profiles.${name}`);
    if (parsed.ok) profiles[name] = parsed.value;
    else problems.push(...parsed.problems);
  }
  for (const [name, raw] of Object.entries(isRecord(doc.checks) ? doc.checks : {})) {
    const def = parseCommandCheck(name, raw, problems);
    if (def) checks[name] = def;
  }
  if (doc.profiles !== undefined && !isRecord(doc.profiles)) problems.push('profiles must be a mapping of name to policy');
  if (doc.checks !== undefined && !isRecord(doc.checks)) problems.push('checks must be a mapping of name to check');
  return problems.length ? { ok: false, problems } : { ok: true, value: { profiles, checks } };
}
