import { readFileSync } from 'node:fs';
import { Language, Parser } from 'web-tree-sitter';
import { treeSitterRuntime } from '@palimpsest/structure/tree-sitter-runtime';

let loaded: Promise<Parser> | null = null;

/**
 * tree-sitter-bash on the web-tree-sitter runtime the structure library already uses: the wasm loads
 * once per process, after which parsing is synchronous. The bytes are handed over, not a path.
 */
export function bashParser(): Promise<Parser> {
  loaded ??= treeSitterRuntime().then(async () => {
    const language = await Language.load(readFileSync(require.resolve('tree-sitter-bash/tree-sitter-bash.wasm')));
    const parser = new Parser();
    parser.setLanguage(language);
    return parser;
  });
  return loaded;
}

/** The pinned versions, for a report of what parsed a line. */
export const BASH_GRAMMAR = 'tree-sitter-bash@0.25.1 web-tree-sitter@0.27.2';
