import { createHash } from 'node:crypto';
import { mkdirSync, mkdtempSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join } from 'node:path';
import type { ProjectState } from '@palimpsest/core/structure/code-graph.port';

/** Small real projects for the code graph's tests, written to a fresh directory. */

export const TS_PROJECT: Record<string, string> = {
  'src/lib.ts': [
    'export function greet(name: string): string {',
    '  return `hello ${name}`;',
    '}',
    '',
    'export function shout(name: string): string {',
    '  return greet(name).toUpperCase();',
    '}',
    '',
  ].join('\n'),
  'src/app.ts': [
    "import { greet } from './lib';",
    '',
    'export function main(): string {',
    "  return greet('app');",
    '}',
    '',
    "export const banner = greet('banner');",
    '',
  ].join('\n'),
  'src/alias.ts': [
    "import { greet as hi } from './lib';",
    '',
    'export class Greeter {',
    '  run(): string {',
    "    return hi('alias');",
    '  }',
    '}',
    '',
  ].join('\n'),
  'src/namespace.ts': [
    "import * as lib from './lib.js';",
    '',
    'export function viaNamespace(): string {',
    "  return lib.greet('ns');",
    '}',
    '',
  ].join('\n'),
  'src/dynamic.ts': [
    "import * as lib from './lib';",
    '',
    'export function byName(which: string): string {',
    "  return (lib as Record<string, (n: string) => string>)[which]('dyn');",
    '}',
    '',
  ].join('\n'),
  'src/app.spec.ts': [
    "import { main } from './app';",
    '',
    "if (main() !== 'hello app') throw new Error('main');",
    '',
  ].join('\n'),
};

export const PY_PROJECT: Record<string, string> = {
  'pkg/__init__.py': '',
  'pkg/lib.py': ['def greet(name):', "    return 'hello ' + name", '', '', 'def shout(name):', '    return greet(name).upper()', ''].join('\n'),
  'pkg/app.py': ['from .lib import greet', '', '', 'def main():', "    return greet('app')", ''].join('\n'),
  'pkg/mod.py': ['import pkg.lib', '', '', 'class Runner:', '    def run(self):', "        return pkg.lib.greet('mod')", ''].join('\n'),
  'pkg/dyn.py': ['from . import lib', '', '', 'def by_name(which):', "    return getattr(lib, which)('dyn')", ''].join('\n'),
  'tests/test_app.py': ['from pkg.app import main', '', '', 'def test_main():', "    assert main() == 'hello app'", ''].join('\n'),
};

export const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');

export function stateOf(files: Record<string, string>): ProjectState {
  return new Map(Object.entries(files).map(([p, t]) => [p, sha256(t)]));
}

export function writeProject(files: Record<string, string>): string {
  const root = mkdtempSync(join(tmpdir(), 'code-graph-'));
  for (const [path, text] of Object.entries(files)) {
    mkdirSync(dirname(join(root, path)), { recursive: true });
    writeFileSync(join(root, path), text);
  }
  return root;
}

/** A reader over the files by hash, counting reads (an incremental update reads only what changed). */
export function readerOf(...projects: Record<string, string>[]) {
  const byHash = new Map(projects.flatMap((p) => Object.values(p).map((t) => [sha256(t), t] as const)));
  const reader = async (_path: string, hash: string) => {
    reader.reads++;
    const text = byHash.get(hash);
    if (text === undefined) throw new Error(`no text for ${hash}`);
    return text;
  };
  reader.reads = 0;
  return reader;
}

/** Every whole-word occurrence of the names, as `path:line:column`: the grep oracle of the declared layer. */
export function grepSites(files: Record<string, string>, names: string[]): string[] {
  const re = new RegExp(`\\b(${names.join('|')})\\b`, 'g');
  const out: string[] = [];
  for (const [path, text] of Object.entries(files)) {
    text.split('\n').forEach((line, i) => {
      for (const m of line.matchAll(re)) out.push(`${path}:${i + 1}:${m.index! + 1}`);
    });
  }
  return out.sort();
}
