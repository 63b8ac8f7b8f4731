import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '@palimpsest/core/structure/structure.port';
import type { UnlinedSymbol } from '@palimpsest/core/structure/symbol-lines';
import type { CodePointIndex } from '@palimpsest/core/text/code-points';
import { codeParser, type CodeLanguage } from './code-grammars';
import { scriptBlock, type SymbolSink } from './script-outline';

/**
 * Functions, classes, methods and variables of TypeScript/TSX/JavaScript and Python, from tree-sitter,
 * plus TypeScript's interfaces, type aliases, enums and namespaces and Python's `type` aliases.
 * Top-level declarations, namespace contents and class/interface/enum members (nested classes too);
 * function bodies are not descended. A scope covers its whole statement: `export`, `declare`,
 * decorators and a single declarator's `const` included.
 * Tree-sitter's offsets are UTF-16 units: converted to code points here.
 */
export async function codeOutline(lang: CodeLanguage, text: string, index: CodePointIndex): Promise<UnlinedSymbol[]> {
  const tree = (await codeParser(lang)).parse(text);
  if (!tree) throw new Error(`tree-sitter returned no tree for ${lang}`);
  try {
    const out: UnlinedSymbol[] = [];
    const sink: SymbolSink = {
      emit: (name, kind, parent, node) =>
        out.push({ name, kind, parent, start: index.toCodePoint(node.startIndex), end: index.toCodePoint(node.endIndex) }) - 1,
      extend: (at, node) => {
        out[at].end = index.toCodePoint(node.endIndex);
      },
    };
    if (lang === 'python') pythonBlock(tree.rootNode, null, sink);
    else scriptBlock(tree.rootNode, null, sink);
    return out;
  } finally {
    tree.delete();
  }
}

function pythonBlock(block: Node, className: string | null, sink: SymbolSink): void {
  for (const statement of block.namedChildren) {
    if (!statement) continue;
    const def = statement.type === 'decorated_definition' ? statement.childForFieldName('definition') : statement;
    if (!def) continue;
    const name = def.childForFieldName('name')?.text;
    const emit = (kind: SymbolKind, symbolName: string) => sink.emit(symbolName, kind, className, statement);
    if (def.type === 'function_definition' && name) emit(className === null ? 'function' : 'method', name);
    else if (def.type === 'class_definition' && name) {
      emit('class', name);
      const body = def.childForFieldName('body');
      if (body) pythonBlock(body, className === null ? name : `${className}.${name}`, sink);
    } else if (def.type === 'type_alias_statement') {
      const alias = typeAliasName(def);
      if (alias) emit('type', alias);
    } else if (def.type === 'expression_statement') pythonAssignment(def, className, sink);
  }
}

/** `type Vector[T] = list[T]` (Python 3.12) is named by its identifier, without its parameters. */
function typeAliasName(statement: Node): string | null {
  const left = statement.childForFieldName('left') ?? statement.namedChildren[0];
  if (!left) return null;
  if (left.type === 'identifier') return left.text;
  const first = left.namedChildren[0];
  if (first?.type === 'identifier') return first.text;
  return first?.namedChildren[0]?.type === 'identifier' ? first.namedChildren[0].text : null;
}

function pythonAssignment(statement: Node, className: string | null, sink: SymbolSink): void {
  const assignment = statement.namedChildren[0];
  if (assignment?.type !== 'assignment') return;
  const left = assignment.childForFieldName('left');
  if (left?.type === 'identifier') sink.emit(left.text, 'variable', className, statement);
}
