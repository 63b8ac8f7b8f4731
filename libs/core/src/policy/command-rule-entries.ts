import { isRecord } from '../shared/is-record';
import { parseCommandRule } from './command-rule';

/** The example lines one allow/deny entry carries: each `match` line must match the rule, each `not_match` line must not. */
export interface RuleExamples {
  kind: 'allow' | 'deny';
  index: number;
  rule: string;
  match: string[];
  not_match: string[];
}

const ENTRY_FIELDS = new Set(['rule', 'match', 'not_match']);

function lines(value: unknown, where: string, problems: string[]): string[] {
  if (value === undefined) return [];
  if (Array.isArray(value) && value.every((v) => typeof v === 'string' && v.trim() !== '')) return value;
  problems.push(`${where} must be a list of command lines`);
  return [];
}

/**
 * An allow or deny list: each entry a rule (`npm test`) or { rule, match, not_match }. A malformed entry
 * is a problem of the load, never skipped.
 */
export function parseRuleEntries(kind: 'allow' | 'deny', value: unknown, where: string, problems: string[]): { rules: string[]; examples: RuleExamples[] } {
  const rules: string[] = [];
  const examples: RuleExamples[] = [];
  if (value === undefined || value === null) return { rules, examples };
  if (!Array.isArray(value)) {
    problems.push(`${where} must be a list of command rules`);
    return { rules, examples };
  }
  value.forEach((entry, index) => {
    const at = `${where}[${index}]`;
    const record = isRecord(entry) ? entry : null;
    const text = record ? record.rule : entry;
    if (record) for (const key of Object.keys(record)) if (!ENTRY_FIELDS.has(key)) problems.push(`${at}.${key} is not a rule field (rule, match, not_match)`);
    if (typeof text !== 'string' || text.length > 128) {
      problems.push(`${at} must be a command rule (a program and its arguments, at most 128 characters) or { rule, match, not_match }`);
      return;
    }
    const parsed = parseCommandRule(text);
    if (!parsed.ok) problems.push(`${at} ${JSON.stringify(text)} ${parsed.problem}`);
    if (rules.includes(text)) return;
    rules.push(text);
    const match = record ? lines(record.match, `${at}.match`, problems) : [];
    const notMatch = record ? lines(record.not_match, `${at}.not_match`, problems) : [];
    if (match.length || notMatch.length) examples.push({ kind, index: rules.length - 1, rule: text, match, not_match: notMatch });
  });
  return { rules, examples };
}
