import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StructureLanguage, StructureSymbol } from '@palimpsest/core/structure/structure.port';
import { CodePointIndex } from '@palimpsest/core/text/code-points';
import { engineIdentity, installedVersion, PINNED, type PinnedPackage } from './engine-identity';
import { languageOf, structureEngine } from './structure-engine';

const engine = structureEngine();
const fixture = (name: string) => readFileSync(join(__dirname, 'test-support', 'fixtures', name), 'utf8');

async function outline(file: string) {
  const text = fixture(file);
  const language = languageOf(file, 'text/plain') as StructureLanguage;
  const result = await engine.outline(language, text);
  const index = new CodePointIndex(text);
  const slice = (s: StructureSymbol) => index.slice(s.start, s.end);
  const find = (name: string, parent: string | null = null) => {
    const s = result.symbols.find((x) => x.name === name && x.parent === parent);
    if (!s) throw new Error(`no ${name} under ${parent}: ${JSON.stringify(result.symbols.map((x) => [x.name, x.parent]))}`);
    return s;
  };
  return { result, slice, find, text };
}

describe('structure engine over real files (offsets in code points)', () => {
  it('TypeScript: functions, classes, methods and variables', async () => {
    const { result, slice, find } = await outline('sample.ts');
    expect(result.engine).toBe('palimpsest-structure@2 web-tree-sitter@0.27.2 tree-sitter-typescript@0.23.2');
    expect(result.symbols.map((s) => [s.name, s.kind, s.parent])).toEqual([
      ['banner', 'variable', null],
      ['greet', 'function', null],
      ['Greeter', 'class', null],
      ['count', 'variable', 'Greeter'],
      ['greet', 'method', 'Greeter'],
      ['create', 'method', 'Greeter'],
      ['handler', 'function', null],
      ['a', 'variable', null],
      ['b', 'variable', null],
    ]);
    expect(slice(find('banner'))).toBe("const banner = '𝒜𝒷𝒸';");
    expect(slice(find('greet'))).toMatch(/^export function greet\(name: string\): string \{[\s\S]*😀`;\n\}$/);
    expect(slice(find('greet', 'Greeter'))).toMatch(/^greet\(name: string\): string \{[\s\S]*\n {2}\}$/);
    expect(slice(find('a'))).toBe('a = 1');
    const greeter = find('Greeter');
    expect([greeter.start_line, greeter.end_line]).toEqual([8, 17]);
    // UTF-16 offset differs from the code-point offset: three astral characters precede `banner`
    expect(find('banner').start).toBe(fixture('sample.ts').indexOf('const banner') - 2);
  });

  it('Python: decorated classes, methods, nested classes, module variables', async () => {
    const { result, slice, find } = await outline('sample.py');
    expect(result.engine).toContain('tree-sitter-python@0.25.0');
    expect(result.symbols.map((s) => [s.name, s.kind, s.parent])).toEqual([
      ['GREETING', 'variable', null],
      ['greet', 'function', null],
      ['Greeter', 'class', null],
      ['count', 'variable', 'Greeter'],
      ['greet', 'method', 'Greeter'],
      ['Inner', 'class', 'Greeter'],
      ['run', 'method', 'Greeter.Inner'],
    ]);
    expect(slice(find('Greeter'))).toMatch(/^@dataclass\nclass Greeter:/);
    expect(slice(find('GREETING'))).toBe('GREETING = "𝒜𝒷𝒸"');
    expect(find('run', 'Greeter.Inner').start_line).toBe(17);
  });

  it('Markdown: sections by heading text (punctuation kept, duplicates under their parents), code blocks, table rows', async () => {
    const { result, slice, find } = await outline('guide.md');
    expect(result.symbols.map((s) => [s.name, s.kind, s.parent])).toEqual([
      ['Guide 😀', 'section', null],
      ['Install', 'section', 'Guide 😀'],
      ['sh:1', 'code_block', 'Guide 😀.Install'],
      ['Usage: basics!', 'section', 'Guide 😀'],
      ['option', 'table_row', 'Guide 😀.Usage: basics!'],
      ['`-v`', 'table_row', 'Guide 😀.Usage: basics!'],
      ['Install', 'section', 'Guide 😀.Usage: basics!'],
      ['Appendix', 'section', null],
      ['Install', 'section', 'Appendix'],
    ]);
    expect(slice(find('Install', 'Guide 😀'))).toBe('## Install\n\nRun the installer.\n\n```sh\nnpm install\n```');
    expect(slice(find('Install', 'Appendix'))).toBe('## Install\n\nThird install.');
    expect(slice(find('`-v`', 'Guide 😀.Usage: basics!'))).toBe('| `-v`   | verbose |');
    expect(find('Appendix').start_line).toBe(23);
  });

  it('YAML: objects and config items by key path', async () => {
    const { result, slice, find } = await outline('config.yaml');
    expect(result.symbols.map((s) => [s.name, s.kind, s.parent])).toEqual([
      ['server', 'object', null],
      ['host', 'config_item', 'server'],
      ['port', 'config_item', 'server'],
      ['tls', 'object', 'server'],
      ['enabled', 'config_item', 'server.tls'],
      ['database', 'object', null],
      ['url', 'config_item', 'database'],
      ['features', 'config_item', null],
    ]);
    expect(slice(find('host', 'server'))).toBe('host: "𝒜.example"');
    expect(slice(find('port', 'server'))).toBe('port: 8080');
    expect(slice(find('features'))).toBe('features: [a, b]');
    expect(slice(find('server'))).toBe('server:\n  host: "𝒜.example"\n  port: 8080\n  tls:\n    enabled: true');
    expect(slice(find('tls', 'server'))).toBe('tls:\n    enabled: true');
  });

  it('JSON: objects and config items by key path', async () => {
    const { result, slice, find } = await outline('settings.json');
    expect(result.symbols.map((s) => [s.name, s.kind, s.parent])).toEqual([
      ['name', 'config_item', null],
      ['server', 'object', null],
      ['port', 'config_item', 'server'],
      ['tls', 'object', 'server'],
      ['enabled', 'config_item', 'server.tls'],
      ['tags', 'config_item', null],
    ]);
    expect(slice(find('port', 'server'))).toBe('"port": 8080');
    expect(slice(find('tags'))).toBe('"tags": ["a", "b"]');
  });

  it('JavaScript and TSX load their own grammars', async () => {
    const js = await engine.outline('javascript', 'class A { m() {} x = 1 }\nfunction f() {}\n');
    expect(js.symbols.map((s) => [s.name, s.kind, s.parent])).toEqual([['A', 'class', null], ['m', 'method', 'A'], ['x', 'variable', 'A'], ['f', 'function', null]]);
    expect(js.engine).toContain('tree-sitter-javascript@0.25.0');
    const tsx = await engine.outline('tsx', 'export const App = () => <div>😀</div>;\n');
    expect(tsx.symbols.map((s) => [s.name, s.kind])).toEqual([['App', 'function']]);
  });

  it('chooses the language from the filename, then the content type', () => {
    expect(languageOf('a.PY', 'text/plain')).toBe('python');
    expect(languageOf('README', 'text/markdown; charset=utf-8')).toBe('markdown');
    expect(languageOf('notes.txt', 'text/plain')).toBeNull();
  });

  it('is pinned: every installed parser is the version in its identity', () => {
    for (const pkg of Object.keys(PINNED) as PinnedPackage[]) expect(installedVersion(pkg)).toBe(PINNED[pkg]);
    expect(engineIdentity('markdown')).toBe('palimpsest-structure@2 mdast-util-from-markdown@2.1.0 mdast-util-gfm@3.1.0 micromark-extension-gfm@3.0.0');
  });
});
