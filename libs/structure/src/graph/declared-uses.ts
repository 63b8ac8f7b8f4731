import type { Node, Query } from 'web-tree-sitter';
import type { GraphLanguage } from '@palimpsest/core/structure/code-graph.port';
import type { DynamicFact, ImportFact, LineIndex, RefFact } from './file-facts';

/**
 * The uses of one file (declared layer): names used, `qualifier.member` uses, imports and re-exports, and
 * the call sites the parser cannot follow (a computed callee, eval, getattr, an import of a computed name).
 */

export interface Uses {
  refs: RefFact[];
  imports: ImportFact[];
  dynamics: DynamicFact[];
}

const IMPORT_STATEMENTS = new Set(['import_statement', 'import_from_statement']);
const DYNAMIC_PY = new Set(['getattr', 'eval', 'exec', '__import__', 'importlib.import_module']);

export function usesOf(query: Query, root: Node, language: GraphLanguage, declNames: Set<number>, lines: LineIndex): Uses {
  const out: Uses = { refs: [], imports: [], dynamics: [] };
  for (const match of query.matches(root)) {
    const by = new Map(match.captures.map((c) => [c.name, c.node]));
    const ref = by.get('ref');
    const member = by.get('member');
    const statement = by.get('import');
    const callee = by.get('callee');
    if (ref && !declNames.has(ref.startIndex) && isPlainUse(ref, language)) {
      out.refs.push({ name: ref.text, qualifier: null, kind: useKind(ref, ref, language), offset: ref.startIndex, at: lines.at(ref.startIndex) });
    } else if (member && !inImport(member)) {
      const qualifier = by.get('qualifier')!;
      out.refs.push({ name: member.text, qualifier: qualifier.text, kind: useKind(member, member.parent!, language), offset: member.startIndex, at: lines.at(member.startIndex) });
    } else if (statement) {
      out.imports.push(...(language === 'python' ? pythonImports(statement, lines) : scriptImports(statement, lines)));
    } else if (callee && isDynamic(callee, by.get('call')!, language)) {
      out.dynamics.push({ offset: callee.startIndex, at: lines.at(callee.startIndex), text: callee.text.slice(0, 120) });
    }
  }
  return out;
}

function inImport(node: Node): boolean {
  for (let p = node.parent, i = 0; p && i < 6; p = p.parent, i++) {
    if (IMPORT_STATEMENTS.has(p.type)) return true;
    if (p.type === 'export_statement' && p.childForFieldName('source')) return true;
  }
  return false;
}

/** A name used on its own: not the member of `a.b`, not a keyword argument's name, not inside an import. */
function isPlainUse(node: Node, language: GraphLanguage): boolean {
  const parent = node.parent;
  if (!parent || inImport(node)) return false;
  if (language === 'python') {
    if (parent.type === 'attribute' && parent.childForFieldName('attribute')?.id === node.id) return false;
    if (parent.type === 'keyword_argument' && parent.childForFieldName('name')?.id === node.id) return false;
    if (parent.type === 'parameters' || parent.type === 'default_parameter' || parent.type === 'typed_parameter') return false;
  }
  return true;
}

function useKind(node: Node, calleeCandidate: Node, language: GraphLanguage): RefFact['kind'] {
  const parent = calleeCandidate.parent;
  if (parent && (parent.type === 'call_expression' || parent.type === 'call') && parent.childForFieldName('function')?.id === calleeCandidate.id) return 'calls';
  if (parent?.type === 'new_expression' && parent.childForFieldName('constructor')?.id === calleeCandidate.id) return 'calls';
  for (let p = node.parent, i = 0; p && i < 3; p = p.parent, i++) {
    if (p.type === 'class_heritage' || p.type === 'extends_clause' || p.type === 'implements_clause' || p.type === 'extends_type_clause') return 'extends';
    if (language === 'python' && p.type === 'argument_list' && p.parent?.type === 'class_definition') return 'extends';
  }
  return 'references';
}

function stringValue(node: Node | null): string | null {
  if (!node) return null;
  const t = node.text;
  return t.length >= 2 && (t[0] === '"' || t[0] === "'" || t[0] === '`') ? t.slice(1, -1) : null;
}

function scriptImports(statement: Node, lines: LineIndex): ImportFact[] {
  const source = stringValue(statement.childForFieldName('source'));
  if (source === null) return [];
  const reexport = statement.type === 'export_statement';
  const out: ImportFact[] = [];
  const add = (imported: string, local: string, at: Node) =>
    out.push({ source, imported, local, reexport, offset: at.startIndex, at: lines.at(at.startIndex) });
  const visit = (node: Node) => {
    for (const child of node.namedChildren) {
      if (!child) continue;
      if (child.type === 'import_clause' || child.type === 'named_imports' || child.type === 'export_clause') visit(child);
      else if (child.type === 'identifier' && node.type === 'import_clause') add('default', child.text, child);
      else if (child.type === 'namespace_import' || child.type === 'namespace_export') add('*', child.namedChildren[0]?.text ?? '*', child);
      else if (child.type === 'import_specifier' || child.type === 'export_specifier') {
        const name = child.childForFieldName('name');
        if (name) add(name.text, child.childForFieldName('alias')?.text ?? name.text, name);
      }
    }
  };
  visit(statement);
  if (reexport && out.length === 0 && statement.children.some((c) => c?.type === '*')) add('*', '*', statement);
  return out;
}

function pythonImports(statement: Node, lines: LineIndex): ImportFact[] {
  const out: ImportFact[] = [];
  const add = (source: string, imported: string, local: string, at: Node) =>
    out.push({ source, imported, local, reexport: false, offset: at.startIndex, at: lines.at(at.startIndex) });
  if (statement.type === 'import_from_statement') {
    const source = statement.childForFieldName('module_name')?.text ?? '';
    for (const name of statement.childrenForFieldName('name')) {
      if (!name) continue;
      if (name.type === 'aliased_import') {
        const n = name.childForFieldName('name')!;
        add(source, n.text, name.childForFieldName('alias')?.text ?? n.text, n);
      } else add(source, name.text, name.text, name);
    }
    if (statement.namedChildren.some((c) => c?.type === 'wildcard_import')) add(source, '*', '*', statement);
    return out;
  }
  for (const name of statement.childrenForFieldName('name')) {
    if (!name) continue;
    if (name.type === 'aliased_import') add(name.childForFieldName('name')!.text, '*', name.childForFieldName('alias')?.text ?? '', name);
    else add(name.text, '*', name.text, name);
  }
  return out;
}

function isDynamic(callee: Node, call: Node, language: GraphLanguage): boolean {
  if (callee.type === 'subscript_expression' || callee.type === 'subscript') return true;
  if (language === 'python') return DYNAMIC_PY.has(callee.text);
  if (callee.text === 'eval') return true;
  if (callee.type === 'import' || callee.text === 'require') {
    const first = call.childForFieldName('arguments')?.namedChildren[0] ?? null;
    return first === null || stringValue(first) === null || first.type === 'template_string';
  }
  return false;
}
