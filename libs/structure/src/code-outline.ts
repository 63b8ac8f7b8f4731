import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '@palimpsest/core/structure/structure.port';
import type { UnlinedSymbol } from '@palimpsest/core/structure/symbol-lines';
import type { CodePointIndex } from '@palimpsest/core/text/code-points';
import { codeParser, type CodeLanguage } from './code-grammars';

/**
 * Functions, classes, methods and variables of TypeScript/TSX/JavaScript and Python, from tree-sitter.
 * Top-level declarations and class members (nested classes too); function bodies are not descended.
 * A scope covers its whole statement: `export`, decorators and a single declarator's `const` included.
 * Tree-sitter's offsets are UTF-16 units: converted to code points here.
 */
export async function codeOutline(lang: CodeLanguage, text: string, index: CodePointIndex): Promise<UnlinedSymbol[]> {
  const tree = (await codeParser(lang)).parse(text);
  if (!tree) throw new Error(`tree-sitter returned no tree for ${lang}`);
  try {
    const out: UnlinedSymbol[] = [];
    const emit = (name: string, kind: SymbolKind, parent: string | null, node: Node) =>
      out.push({ name, kind, parent, start: index.toCodePoint(node.startIndex), end: index.toCodePoint(node.endIndex) });
    if (lang === 'python') pythonBlock(tree.rootNode, null, emit);
    else scriptProgram(tree.rootNode, emit);
    return out;
  } finally {
    tree.delete();
  }
}

type Emit = (name: string, kind: SymbolKind, parent: string | null, node: Node) => void;

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_TYPES = new Set(['class_declaration', 'abstract_class_declaration', 'class']);

function scriptProgram(root: Node, emit: Emit): void {
  for (const statement of root.namedChildren) {
    if (!statement) continue;
    const decl = statement.type === 'export_statement' ? (statement.childForFieldName('declaration') ?? statement.childForFieldName('value')) : statement;
    if (decl) scriptDeclaration(decl, statement, emit);
  }
}

function scriptDeclaration(decl: Node, outer: Node, emit: Emit): void {
  const name = decl.childForFieldName('name')?.text;
  if ((decl.type === 'function_declaration' || decl.type === 'generator_function_declaration') && name) emit(name, 'function', null, outer);
  else if (CLASS_TYPES.has(decl.type) && name) {
    emit(name, 'class', null, outer);
    scriptClassBody(decl.childForFieldName('body'), name, emit);
  } else if (decl.type === 'lexical_declaration' || decl.type === 'variable_declaration') {
    const declarators = decl.namedChildren.filter((c): c is Node => c?.type === 'variable_declarator');
    for (const d of declarators) {
      const id = d.childForFieldName('name');
      if (id?.type !== 'identifier') continue;
      const value = d.childForFieldName('value');
      emit(id.text, value && FUNCTION_VALUES.has(value.type) ? 'function' : 'variable', null, declarators.length === 1 ? outer : d);
    }
  }
}

function scriptClassBody(body: Node | null, className: string, emit: Emit): void {
  for (const member of body?.namedChildren ?? []) {
    if (!member) continue;
    const name = (member.childForFieldName('name') ?? member.childForFieldName('property'))?.text;
    if (!name) continue;
    if (member.type === 'method_definition' || member.type === 'abstract_method_signature') emit(name, 'method', className, member);
    else if (member.type === 'public_field_definition' || member.type === 'field_definition') {
      const value = member.childForFieldName('value');
      emit(name, value && FUNCTION_VALUES.has(value.type) ? 'method' : 'variable', className, member);
    }
  }
}

function pythonBlock(block: Node, className: string | null, emit: Emit): void {
  for (const statement of block.namedChildren) {
    if (!statement) continue;
    const def = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (!def) continue;
    const name = def.childForFieldName('name')?.text;
    if (def.type === 'function_definition' && name) emit(name, className === null ? 'function' : 'method', className, statement);
    else if (def.type === 'class_definition' && name) {
      emit(name, 'class', className, statement);
      const body = def.childForFieldName('body');
      if (body) pythonBlock(body, className === null ? name : `${className}.${name}`, emit);
    } else if (def.type === 'expression_statement') pythonAssignment(def, className, emit);
  }
}

function pythonAssignment(statement: Node, className: string | null, emit: Emit): void {
  const assignment = statement.namedChildren[0];
  if (assignment?.type !== 'assignment') return;
  const left = assignment.childForFieldName('left');
  if (left?.type === 'identifier') emit(left.text, 'variable', className, statement);
}
