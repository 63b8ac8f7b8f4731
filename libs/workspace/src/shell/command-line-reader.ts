import type { Node, Parser } from 'web-tree-sitter';
import type { ParsedCommandLine, ShellParser } from '@palimpsest/core/policy/command-line';
import { bashParser } from './bash-grammar';

/**
 * Reads a command line through tree-sitter-bash into an argv, or names the first shell construct that
 * keeps it from being one plain command. Only literal words pass: unquoted, 'single-quoted', and
 * "double-quoted" without expansions, with quote removal and backslash escapes as bash applies them.
 * Everything the line would need a shell for (separators, pipes, redirections, substitutions,
 * variables, globs, braces, tildes, assignments, subshells, backgrounding) is named, never guessed.
 */

const CONSTRUCTS: Record<string, string> = {
  list: 'separator (&& ||)',
  pipeline: 'pipe',
  redirected_statement: 'redirection',
  file_redirect: 'redirection',
  heredoc_redirect: 'here-document',
  herestring_redirect: 'here-string',
  command_substitution: 'command substitution',
  process_substitution: 'process substitution',
  simple_expansion: 'variable',
  expansion: 'variable',
  arithmetic_expansion: 'arithmetic expansion',
  subshell: 'subshell',
  compound_statement: 'group',
  variable_assignment: 'variable assignment',
  variable_assignments: 'variable assignment',
  negated_command: 'negation',
  function_definition: 'function',
  if_statement: 'compound command',
  while_statement: 'compound command',
  for_statement: 'compound command',
  c_style_for_statement: 'compound command',
  case_statement: 'compound command',
  test_command: 'test command',
  declaration_command: 'declaration',
  unset_command: 'declaration',
  ansi_c_string: "$'…' quoting",
  translated_string: '$"…" quoting',
  brace_expression: 'brace expansion',
  comment: 'comment',
  '&': 'background',
  ';': 'separator (;)',
  '&&': 'separator (&& ||)',
  '||': 'separator (&& ||)',
  '|': 'pipe',
  '|&': 'pipe',
};

class Refused extends Error {
  constructor(readonly construct: string) {
    super(construct);
  }
}

const constructOf = (node: Node): string => CONSTRUCTS[node.type] ?? (node.isNamed ? node.type.replace(/_/g, ' ') : `"${node.type}"`);

function children(node: Node): Node[] {
  const out: Node[] = [];
  for (let i = 0; i < node.childCount; i += 1) {
    const child = node.child(i);
    if (child) out.push(child);
  }
  return out;
}

/** An unquoted word: backslash escapes removed; a glob, tilde or expansion character refuses it. */
function unquoted(text: string): { value: string; mask: string } {
  let value = '';
  let mask = '';
  for (let i = 0; i < text.length; i += 1) {
    const c = text[i];
    if (c === '\\') {
      const next = text[i + 1] ?? '';
      i += 1;
      if (next !== '\n') {
        value += next;
        mask += '_';
      }
    } else if ('*?[]$`()<>;&|"\''.includes(c) || (c === '~' && i === 0)) {
      throw new Refused(c === '~' ? 'tilde expansion' : '*?[]'.includes(c) ? 'glob' : c === '$' || c === '`' ? 'variable' : `"${c}"`);
    } else {
      value += c;
      mask += c;
    }
  }
  return { value, mask };
}

/** Inside double quotes a backslash escapes only $ ` " \ and a newline. */
function doubleQuoted(node: Node): string {
  for (const child of children(node)) if (child.type !== '"' && child.type !== 'string_content') throw new Refused(constructOf(child));
  const text = node.text.slice(1, -1);
  if (/(^|[^\\])(\\\\)*[$`]/.test(text)) throw new Refused('variable');
  return text.replace(/\\([$`"\\\n])/g, (_, c: string) => (c === '\n' ? '' : c));
}

function word(node: Node): { value: string; mask: string } {
  switch (node.type) {
    case 'word':
    case 'number':
      return unquoted(node.text);
    case 'raw_string':
      return { value: node.text.slice(1, -1), mask: '_'.repeat(node.text.length - 2) };
    case 'string': {
      const value = doubleQuoted(node);
      return { value, mask: '_'.repeat(value.length) };
    }
    case 'concatenation': {
      const parts = children(node).map(word);
      if (parts.reduce((n, p, i) => n + children(node)[i].text.length, 0) !== node.text.length) throw new Refused('does not parse');
      return { value: parts.map((p) => p.value).join(''), mask: parts.map((p) => p.mask).join('') };
    }
    default:
      throw new Refused(constructOf(node));
  }
}

function argument(node: Node): string {
  const { value, mask } = word(node.type === 'command_name' ? (children(node)[0] ?? node) : node);
  if (node.type === 'command_name' && children(node).length !== 1) throw new Refused('does not parse');
  if (/\{[^}]*(,|\.\.)/.test(mask)) throw new Refused('brace expansion');
  return value;
}

function read(parser: Parser, line: string): ParsedCommandLine {
  if (line.includes('\0')) return { kind: 'shell', construct: 'NUL byte' };
  const tree = parser.parse(line);
  if (!tree) return { kind: 'shell', construct: 'does not parse' };
  try {
    const root = tree.rootNode;
    if (root.hasError) throw new Refused('does not parse');
    const top = children(root);
    if (top.length === 0) throw new Refused('empty line');
    if (top.length > 1) throw new Refused(top.some((n) => n.type === '&') ? 'background' : top.some((n) => n.type === 'comment') ? 'comment' : 'separator (; or newline)');
    if (top[0].type !== 'command') throw new Refused(constructOf(top[0]));
    const argv = children(top[0]).map(argument);
    if (argv[0] === '') throw new Refused('empty program');
    return { kind: 'argv', argv };
  } catch (err) {
    if (err instanceof Refused) return { kind: 'shell', construct: err.construct };
    throw err;
  } finally {
    tree.delete();
  }
}

/** Lines whose reading is kept: agents run the same few commands (the tests, the build, git status) again and again. */
const KEPT_READINGS = 256;

/** The shell parser port over tree-sitter-bash; resolves once the grammar is loaded. Readings are pure, so the last ones are kept. */
export async function createShellParser(): Promise<ShellParser> {
  const parser = await bashParser();
  const kept = new Map<string, ParsedCommandLine>();
  return {
    parse(line) {
      const known = kept.get(line);
      if (known) {
        kept.delete(line);
        kept.set(line, known);
        return copyOf(known);
      }
      const reading = read(parser, line);
      kept.set(line, reading);
      if (kept.size > KEPT_READINGS) kept.delete(kept.keys().next().value!);
      return copyOf(reading);
    },
  };
}

const copyOf = (r: ParsedCommandLine): ParsedCommandLine => (r.kind === 'argv' ? { kind: 'argv', argv: [...r.argv] } : { ...r });
