import { sourceFiles } from '@palimpsest/testing/source-files';
import { readFileSync } from 'node:fs';
import { join, relative, sep } from 'node:path';
import ts from 'typescript';

/**
 * libs/application decides and answers; the SQL that reads and writes the read models lives beside their
 * projections (libs/projections/src/**\/*.queries.ts) or in libs/store. This holds the line: any SQL text
 * in a string or template literal of a non-spec application file fails here, named by file:line.
 */

/** Case-sensitive: SQL keywords are written in capitals here, prose and identifiers are not. */
const SQL_PATTERNS: RegExp[] = [
  /\bSELECT\s/,
  /\bINSERT INTO\b/,
  /\bUPDATE\s+\S+[\s\S]*?\sSET\s/,
  /\bDELETE FROM\b/,
  /\bFOR UPDATE\b/,
  /\bpg_advisory/,
  /\bWITH\s[\s\S]*?\bAS\s*(?:NOT\s+)?(?:MATERIALIZED\s*)?\(/,
  /\bON CONFLICT\b/,
];

const ROOT = __dirname;

/** `line: keyword` for each SQL match in the file's string and template literals (comments are not literals). */
function sqlInSource(fileName: string, text: string): string[] {
  const file = ts.createSourceFile(fileName, text, ts.ScriptTarget.Latest, true);
  const found: string[] = [];
  const scan = (node: ts.Node) => {
    if (ts.isStringLiteral(node) || ts.isNoSubstitutionTemplateLiteral(node) || ts.isTemplateExpression(node)) {
      const start = node.getStart(file);
      // The literal's own text, positions kept: substitutions and escapes become spaces.
      let raw = text.slice(start, node.end);
      if (ts.isTemplateExpression(node)) {
        for (const span of node.templateSpans) {
          const [from, to] = [span.expression.getFullStart() - start, span.expression.end - start];
          raw = raw.slice(0, from) + raw.slice(from, to).replace(/[^\n]/g, ' ') + raw.slice(to);
        }
      }
      raw = raw.replace(/\\[nrt]/g, '  ');
      for (const pattern of SQL_PATTERNS) {
        const match = pattern.exec(raw);
        if (match) found.push(`${file.getLineAndCharacterOfPosition(start + match.index).line + 1}: ${match[0].split(/\s/)[0]}`);
      }
    }
    ts.forEachChild(node, scan);
  };
  scan(file);
  return found;
}

describe('libs/application has no SQL text', () => {
  it('finds SQL in string and template literals, and not in comments or prose', () => {
    const sample = [
      "const a = 'SELECT 1 FROM targets WHERE target_id = $1';",
      '// SELECT in a comment, FOR UPDATE too',
      'const b = `UPDATE targets',
      '   SET version = ${next} WHERE target_id = $1`;',
      'const c = `WITH moved AS (${inner}) SELECT 1`;',
      "const d = 'Select the rows for update; insert into the list';",
      "const e = tx.query(`SELECT pg_advisory_xact_lock(${'$'}1)`);",
    ].join('\n');
    expect(sqlInSource('sample.ts', sample)).toEqual(['1: SELECT', '3: UPDATE', '5: SELECT', '5: WITH', '7: SELECT', '7: pg_advisory']);
  });

  it('in any non-spec file: none, by file:line', () => {
    const offending = sourceFiles(ROOT).flatMap((path) => {
      const file = relative(ROOT, path).split(sep).join('/');
      return sqlInSource(path, readFileSync(path, 'utf8')).map((line) => `${file}:${line}`);
    });
    expect(offending).toEqual([]);
  });
});
