import { readFileSync } from 'node:fs';
import { Language, Parser } from 'web-tree-sitter';
import { treeSitterRuntime } from './tree-sitter-runtime';

export type CodeLanguage = 'typescript' | 'tsx' | 'javascript' | 'python';

const WASM: Record<CodeLanguage, string> = {
  typescript: 'tree-sitter-typescript/tree-sitter-typescript.wasm',
  tsx: 'tree-sitter-typescript/tree-sitter-tsx.wasm',
  javascript: 'tree-sitter-javascript/tree-sitter-javascript.wasm',
  python: 'tree-sitter-python/tree-sitter-python.wasm',
};

const languages = new Map<CodeLanguage, Promise<Language>>();
const parsers = new Map<CodeLanguage, Parser>();

/**
 * The runtime initializes once per process; each grammar's wasm loads once, on first use. The bytes are
 * read here and handed over (a path would make web-tree-sitter import node:fs dynamically).
 */
function language(lang: CodeLanguage): Promise<Language> {
  const ready = treeSitterRuntime();
  let loaded = languages.get(lang);
  if (!loaded) {
    loaded = ready.then(() => Language.load(readFileSync(require.resolve(WASM[lang]))));
    languages.set(lang, loaded);
  }
  return loaded;
}

/** A parser for the grammar, reused: parsing is synchronous, so calls on one thread never interleave. */
export async function codeParser(lang: CodeLanguage): Promise<Parser> {
  const grammar = await language(lang);
  let parser = parsers.get(lang);
  if (!parser) {
    parser = new Parser();
    parser.setLanguage(grammar);
    parsers.set(lang, parser);
  }
  return parser;
}
