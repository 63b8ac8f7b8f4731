import { sha256Hex } from '@palimpsest/core/text/sha256';
import { Query, type Node, type Parser } from 'web-tree-sitter';
import type { GraphLanguage } from '@palimpsest/core/structure/code-graph.port';
import { codeParser } from '../code-grammars';
import { declarationQuery, useQuery } from './declared-queries';
import { LineIndex, type DeclFact, type FileFacts } from './file-facts';
import { usesOf } from './declared-uses';

/**
 * The declared layer of one file: its declarations (top level, class members, namespace-free) and its
 * uses, from the tree-sitter queries of declared-queries.ts. Pure in the text: the same content always
 * gives the same facts, so they are kept per content hash.
 */

const queries = new Map<GraphLanguage, { decls: Query; uses: Query }>();

function queriesFor(language: GraphLanguage, parser: Parser): { decls: Query; uses: Query } {
  let q = queries.get(language);
  if (!q) {
    const grammar = parser.language;
    if (!grammar) throw new Error(`no grammar loaded for ${language}`);
    q = { decls: new Query(grammar, declarationQuery(language)), uses: new Query(grammar, useQuery(language)) };
    queries.set(language, q);
  }
  return q;
}

export async function declaredFacts(language: GraphLanguage, text: string): Promise<FileFacts> {
  const parser = await codeParser(language);
  const q = queriesFor(language, parser);
  const tree = parser.parse(text);
  if (!tree) throw new Error(`tree-sitter returned no tree for ${language}`);
  try {
    const lines = new LineIndex(text);
    const decls = declarationsOf(q.decls, tree.rootNode, language, text, lines);
    const uses = usesOf(q.uses, tree.rootNode, language, new Set(decls.map((d) => d.nameStart)), lines);
    const names = new Set<string>();
    for (const r of uses.refs) names.add(r.name);
    for (const i of uses.imports) names.add(i.imported).add(i.local);
    return { language, parseError: tree.rootNode.hasError, decls, ...uses, names };
  } finally {
    tree.delete();
  }
}

/** Ancestors that make a declaration local to a body: not part of the file's graph. */
const BODIES = new Set(['statement_block', 'arrow_function', 'function_expression', 'function', 'function_definition', 'lambda']);

function declarationsOf(query: Query, root: Node, language: GraphLanguage, text: string, lines: LineIndex): DeclFact[] {
  const out: DeclFact[] = [];
  const seen = new Set<number>();
  for (const match of query.matches(root)) {
    const declCapture = match.captures.find((c) => c.name.startsWith('decl.'));
    const name = match.captures.find((c) => c.name === 'name')?.node;
    if (!declCapture || !name || seen.has(name.startIndex)) continue;
    const node = declCapture.node;
    const owner = ownerOf(node);
    if (owner === undefined) continue;
    if (language === 'python' && declCapture.name === 'decl.variable' && node.parent?.type !== 'expression_statement') continue;
    seen.add(name.startIndex);
    const outer = outerNode(node, declCapture.name);
    const kind = kindOf(declCapture.name, node, owner, language);
    out.push({
      kind,
      name: name.text,
      qualified: owner === null ? name.text : `${owner}.${name.text}`,
      start: outer.startIndex,
      end: outer.endIndex,
      nameStart: name.startIndex,
      range: { start: lines.at(outer.startIndex), end: lines.at(outer.endIndex) },
      signature: signatureOf(node, text, capture(declCapture.name, outer)),
      textHash: sha256Hex(text.slice(outer.startIndex, outer.endIndex)),
      exportedDefault: isDefaultExport(outer),
    });
  }
  return out.sort((a, b) => a.start - b.start || b.end - a.end);
}

/** The enclosing class's name, null at top level, undefined when the declaration sits in a body. */
function ownerOf(node: Node): string | null | undefined {
  const names: string[] = [];
  for (let p = node.parent; p; p = p.parent) {
    if (BODIES.has(p.type)) return undefined;
    if (p.type === 'class_declaration' || p.type === 'abstract_class_declaration' || p.type === 'class_definition') {
      const n = p.childForFieldName('name')?.text;
      if (n) names.unshift(n);
    }
    if (p.type === 'class' || p.type === 'object' || p.type === 'arguments' || p.type === 'dictionary') return undefined;
  }
  return names.length === 0 ? null : names.join('.');
}

/** A single declarator's whole statement (`const x = …;`), an exported declaration with its `export`. */
function outerNode(node: Node, capture: string): Node {
  let outer = node;
  if (capture === 'decl.variable' && node.type === 'variable_declarator') {
    const statement = node.parent;
    if (statement && statement.namedChildren.filter((c) => c?.type === 'variable_declarator').length === 1) outer = statement;
  }
  if (outer.parent?.type === 'export_statement' || outer.parent?.type === 'decorated_definition') outer = outer.parent;
  if (capture === 'decl.variable' && outer.type === 'assignment' && outer.parent?.type === 'expression_statement') outer = outer.parent;
  return outer;
}

function kindOf(capture: string, node: Node, owner: string | null, language: GraphLanguage): DeclFact['kind'] {
  const kind = capture.slice('decl.'.length) as DeclFact['kind'];
  if (kind === 'function' && language === 'python' && owner !== null) return 'method';
  if (kind === 'variable') {
    const value = node.childForFieldName(language === 'python' ? 'right' : 'value');
    if (value && (value.type === 'arrow_function' || value.type === 'function_expression' || value.type === 'function' || value.type === 'lambda')) return 'function';
  }
  return kind;
}

function isDefaultExport(outer: Node): boolean {
  return outer.type === 'export_statement' && outer.children.some((c) => c?.type === 'default');
}

/** The declaration up to its body; a variable's first line. At most 300 characters. */
function capture(name: string, outer: Node): number | null {
  return name === 'decl.variable' ? outer.startIndex : null;
}

function signatureOf(node: Node, text: string, from: number | null): string {
  const body = node.childForFieldName('body');
  const value = node.childForFieldName('value');
  const fnBody = value?.type === 'arrow_function' || value?.type === 'function_expression' ? value.childForFieldName('body') : null;
  const end = (body ?? fnBody)?.startIndex ?? node.endIndex;
  const raw = text.slice(from ?? node.startIndex, end).trim();
  const compact = (body || fnBody ? raw : raw.split('\n')[0]).replace(/\s+/g, ' ');
  return compact.length > 300 ? `${compact.slice(0, 299)}…` : compact;
}
