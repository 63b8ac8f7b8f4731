import type { Node } from 'web-tree-sitter';
import type { SymbolKind } from '@palimpsest/core/structure/structure.port';

/** Receives the symbols of one tree in document order; `extend` grows an emitted symbol to a later node's end. */
export interface SymbolSink {
  emit(name: string, kind: SymbolKind, parent: string | null, node: Node): number;
  extend(index: number, node: Node): void;
}

const FUNCTION_VALUES = new Set(['arrow_function', 'function_expression', 'function', 'generator_function']);
const CLASS_TYPES = new Set(['class_declaration', 'abstract_class_declaration', 'class']);
const FUNCTION_TYPES = new Set(['function_declaration', 'generator_function_declaration', 'function_signature']);
const MODULE_TYPES = new Set(['internal_module', 'module']);
/** Overload signatures: a following declaration of the same name belongs to the same scope. */
const SIGNATURES = new Set(['function_signature', 'method_signature']);

const qualify = (parent: string | null, name: string) => (parent === null ? name : `${parent}.${name}`);

/**
 * TypeScript/JavaScript declarations of a program, a namespace body (`namespace`, `declare module`,
 * `declare global`) or a class/interface body. `export` and `declare` are part of the scope. Overloads
 * are one scope: consecutive signatures of one name and the implementation that follows them.
 */
export function scriptBlock(block: Node, parent: string | null, sink: SymbolSink): void {
  let overload: { index: number; name: string } | null = null;
  for (const statement of block.namedChildren) {
    if (!statement || statement.type === 'comment') continue;
    const decl = unwrap(statement);
    const name = decl ? nameOf(decl) : null;
    if (decl && overload && FUNCTION_TYPES.has(decl.type) && name === overload.name) {
      sink.extend(overload.index, statement);
      if (!SIGNATURES.has(decl.type)) overload = null;
      continue;
    }
    overload = null;
    if (!decl) continue;
    const index = scriptDeclaration(decl, statement, parent, sink);
    if (index !== null && name !== null && SIGNATURES.has(decl.type)) overload = { index, name };
  }
}

/** The declaration inside `export …`, `export default …`, `declare …` (and `export declare …`). */
function unwrap(statement: Node): Node | null {
  let node: Node | null = statement;
  while (node?.type === 'export_statement' || node?.type === 'ambient_declaration') {
    node = node.type === 'export_statement' ? (node.childForFieldName('declaration') ?? node.childForFieldName('value')) : node.namedChildren[0];
  }
  return node;
}

/** A declaration's name; a module named by a string (`declare module 'pkg'`) without its quotes. */
function nameOf(decl: Node): string | null {
  const id = decl.childForFieldName('name');
  if (!id) return null;
  if (id.type === 'string') return id.namedChildren[0]?.text ?? null;
  return id.text;
}

function scriptDeclaration(decl: Node, outer: Node, parent: string | null, sink: SymbolSink): number | null {
  const name = nameOf(decl);
  if (decl.type === 'lexical_declaration' || decl.type === 'variable_declaration') {
    variables(decl, outer, parent, sink);
    return null;
  }
  if (decl.type === 'statement_block') {
    // `declare global { … }`: the only ambient block without a name.
    sink.emit('global', 'namespace', parent, outer);
    scriptBlock(decl, qualify(parent, 'global'), sink);
    return null;
  }
  if (!name) return null;
  if (FUNCTION_TYPES.has(decl.type)) return sink.emit(name, 'function', parent, outer);
  if (decl.type === 'type_alias_declaration') return sink.emit(name, 'type', parent, outer);
  return declarationWithBody(decl, name, outer, parent, sink);
}

function declarationWithBody(decl: Node, name: string, outer: Node, parent: string | null, sink: SymbolSink): number | null {
  const body = decl.childForFieldName('body');
  const inner = qualify(parent, name);
  if (CLASS_TYPES.has(decl.type)) {
    const index = sink.emit(name, 'class', parent, outer);
    if (body) memberBlock(body, inner, sink);
    return index;
  }
  if (decl.type === 'interface_declaration') {
    const index = sink.emit(name, 'interface', parent, outer);
    if (body) memberBlock(body, inner, sink);
    return index;
  }
  if (decl.type === 'enum_declaration') {
    const index = sink.emit(name, 'enum', parent, outer);
    if (body) enumMembers(body, inner, sink);
    return index;
  }
  if (MODULE_TYPES.has(decl.type)) {
    const index = sink.emit(name, 'namespace', parent, outer);
    if (body) scriptBlock(body, inner, sink);
    return index;
  }
  return null;
}

function variables(decl: Node, outer: Node, parent: string | null, sink: SymbolSink): void {
  const declarators = decl.namedChildren.filter((c): c is Node => c?.type === 'variable_declarator');
  for (const d of declarators) {
    const id = d.childForFieldName('name');
    if (id?.type !== 'identifier') continue;
    const value = d.childForFieldName('value');
    sink.emit(id.text, value && FUNCTION_VALUES.has(value.type) ? 'function' : 'variable', parent, declarators.length === 1 ? outer : d);
  }
}

/**
 * Members of a class or interface body: methods (and method signatures), fields and property signatures.
 * A field whose value is a function is a method; overload signatures join the member that follows them.
 */
function memberBlock(body: Node, owner: string, sink: SymbolSink): void {
  let overload: { index: number; name: string } | null = null;
  for (const member of body.namedChildren) {
    if (!member || member.type === 'comment') continue;
    const name = (member.childForFieldName('name') ?? member.childForFieldName('property'))?.text ?? null;
    const kind = name === null ? null : memberKind(member);
    if (kind === 'method' && overload && overload.name === name) {
      sink.extend(overload.index, member);
      if (member.type !== 'method_signature') overload = null;
      continue;
    }
    overload = null;
    if (name === null || kind === null) continue;
    const index = sink.emit(name, kind, owner, member);
    if (member.type === 'method_signature') overload = { index, name };
  }
}

function memberKind(member: Node): SymbolKind | null {
  switch (member.type) {
    case 'method_definition':
    case 'method_signature':
    case 'abstract_method_signature':
      return 'method';
    case 'property_signature':
      return 'variable';
    case 'public_field_definition':
    case 'field_definition': {
      const value = member.childForFieldName('value');
      return value && FUNCTION_VALUES.has(value.type) ? 'method' : 'variable';
    }
    default:
      return null;
  }
}

/** Enum members (`A`, `A = 1`, `"B"`) are variables of their enum. */
function enumMembers(body: Node, owner: string, sink: SymbolSink): void {
  for (const member of body.namedChildren) {
    if (!member) continue;
    const key = member.type === 'enum_assignment' ? member.childForFieldName('name') : member;
    if (!key) continue;
    const name = key.type === 'string' ? (key.namedChildren[0]?.text ?? null) : key.type === 'property_identifier' ? key.text : null;
    if (name) sink.emit(name, 'variable', owner, member);
  }
}
