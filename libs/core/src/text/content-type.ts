/**
 * A file's content type from its name: what a target bound to a workspace file records as its
 * target_type, so a Markdown file is `text/markdown`, not `text/plain`. Names without a known
 * extension are `text/plain`.
 */
const BY_EXTENSION: Readonly<Record<string, string>> = {
  md: 'text/markdown', markdown: 'text/markdown', mdx: 'text/markdown',
  json: 'application/json', jsonc: 'application/json',
  yaml: 'application/yaml', yml: 'application/yaml',
  toml: 'application/toml',
  xml: 'application/xml', svg: 'image/svg+xml',
  ts: 'text/typescript', mts: 'text/typescript', cts: 'text/typescript', tsx: 'text/tsx',
  js: 'text/javascript', mjs: 'text/javascript', cjs: 'text/javascript', jsx: 'text/javascript',
  py: 'text/x-python', pyi: 'text/x-python',
  rs: 'text/x-rust', go: 'text/x-go', java: 'text/x-java', kt: 'text/x-kotlin', cs: 'text/x-csharp',
  c: 'text/x-c', h: 'text/x-c', cc: 'text/x-c++', cpp: 'text/x-c++', hpp: 'text/x-c++',
  rb: 'text/x-ruby', php: 'text/x-php', swift: 'text/x-swift',
  sh: 'text/x-shellscript', bash: 'text/x-shellscript',
  sql: 'application/sql',
  html: 'text/html', htm: 'text/html', css: 'text/css', scss: 'text/x-scss',
  csv: 'text/csv', tsv: 'text/tab-separated-values',
  txt: 'text/plain',
};

export const PLAIN_TEXT = 'text/plain';

export function contentTypeOf(filename: string): string {
  const base = filename.slice(filename.lastIndexOf('/') + 1);
  const dot = base.lastIndexOf('.');
  return dot > 0 ? (BY_EXTENSION[base.slice(dot + 1).toLowerCase()] ?? PLAIN_TEXT) : PLAIN_TEXT;
}
