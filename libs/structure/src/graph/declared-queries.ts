import type { GraphLanguage } from '@palimpsest/core/structure/code-graph.port';

/**
 * The tree-sitter queries of the declared layer, per grammar. Captures name what a match is:
 * `decl.<kind>` the declaration (with `name`), `ref` an identifier use, `member` a `qualifier.member`
 * use, `import` an import or re-export statement, `call` a call whose callee is checked for dynamic
 * dispatch. Which matches count (nesting, declaration names) is decided in declared-facts.ts.
 */

const SCRIPT_DECLS = `
(function_declaration name: (_) @name) @decl.function
(generator_function_declaration name: (_) @name) @decl.function
(class_declaration name: (_) @name) @decl.class
(method_definition name: (_) @name) @decl.method
(variable_declarator name: (identifier) @name) @decl.variable
`;

const TS_DECLS = `
(abstract_class_declaration name: (_) @name) @decl.class
(interface_declaration name: (_) @name) @decl.interface
(type_alias_declaration name: (_) @name) @decl.type
(enum_declaration name: (_) @name) @decl.enum
`;

const SCRIPT_USES = `
(identifier) @ref
(shorthand_property_identifier) @ref
(member_expression object: (_) @qualifier property: (property_identifier) @member)
(import_statement) @import
(export_statement source: (_)) @import
(call_expression function: (_) @callee) @call
`;

const TS_USES = `
(type_identifier) @ref
`;

const PYTHON_DECLS = `
(function_definition name: (identifier) @name) @decl.function
(class_definition name: (identifier) @name) @decl.class
(assignment left: (identifier) @name) @decl.variable
`;

const PYTHON_USES = `
(identifier) @ref
(attribute object: (_) @qualifier attribute: (identifier) @member)
(import_statement) @import
(import_from_statement) @import
(call function: (_) @callee) @call
`;

export function declarationQuery(language: GraphLanguage): string {
  if (language === 'python') return PYTHON_DECLS;
  return language === 'javascript' ? SCRIPT_DECLS : SCRIPT_DECLS + TS_DECLS;
}

export function useQuery(language: GraphLanguage): string {
  if (language === 'python') return PYTHON_USES;
  return language === 'javascript' ? SCRIPT_USES : SCRIPT_USES + TS_USES;
}
