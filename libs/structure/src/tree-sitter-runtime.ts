import { Parser } from 'web-tree-sitter';

let ready: Promise<void> | null = null;

/**
 * web-tree-sitter's runtime, initialized once per process for every grammar (code outlines, the shell
 * parser of the command gate): a second Parser.init() would start a new runtime, and every language
 * loaded under the first would then report version 0 and refuse to parse.
 */
export function treeSitterRuntime(): Promise<void> {
  ready ??= Parser.init();
  return ready;
}
