import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import type { StructureLanguage, StructureSymbol } from '@palimpsest/core/structure/structure.port';
import { selectExact } from '@palimpsest/core/structure/scope-selection';
import { CodePointIndex } from '@palimpsest/core/text/code-points';
import { structureEngine } from './structure-engine';

const engine = structureEngine();

async function outline(file: string, language: StructureLanguage) {
  const text = readFileSync(join(__dirname, 'test-support', 'fixtures', file), 'utf8');
  const { symbols } = await engine.outline(language, text);
  const index = new CodePointIndex(text);
  const one = (name: string) => {
    const picked = selectExact(symbols, name, null);
    if (picked.kind !== 'one') throw new Error(`${name}: ${picked.kind}`);
    return picked.symbol;
  };
  const slice = (name: string) => index.slice(one(name).start, one(name).end);
  return { symbols, one, slice };
}

const rows = (symbols: StructureSymbol[]) => symbols.map((s) => [s.kind, s.parent, s.name, s.start_line, s.end_line]);

describe('code outline: TypeScript declarations beyond functions and classes (real file)', () => {
  it('names interfaces, type aliases, enums, namespaces and their members, in document order', async () => {
    const { symbols } = await outline('shapes.ts', 'typescript');
    expect(rows(symbols)).toEqual([
      ['interface', null, 'Shape', 5, 11],
      ['variable', 'Shape', 'name', 6, 6],
      ['method', 'Shape', 'area', 7, 7],
      ['method', 'Shape', 'scale', 8, 9],
      ['interface', null, 'Empty', 13, 13],
      ['type', null, 'Id', 15, 15],
      ['type', null, 'Mapper', 16, 16],
      ['enum', null, 'Color', 18, 22],
      ['variable', 'Color', 'Red', 19, 19],
      ['variable', 'Color', 'Green', 20, 20],
      ['variable', 'Color', 'Blue 𝒜', 21, 21],
      ['enum', null, 'Flags', 24, 24],
      ['variable', 'Flags', 'None', 24, 24],
      ['variable', 'Flags', 'Dirty', 24, 24],
      ['class', null, 'Base', 26, 34],
      ['variable', 'Base', 'name', 27, 27],
      ['method', 'Base', 'area', 28, 28],
      ['method', 'Base', 'scale', 29, 33],
      ['function', null, 'parse', 36, 40],
      ['namespace', null, 'Geometry', 42, 50],
      ['variable', 'Geometry', 'origin', 43, 43],
      ['function', 'Geometry', 'distance', 44, 46],
      ['namespace', 'Geometry', 'Units', 47, 49],
      ['type', 'Geometry.Units', 'Metric', 48, 48],
      ['function', null, 'external', 52, 52],
      ['variable', null, 'VERSION', 53, 53],
      ['namespace', null, 'plugin-😀', 55, 57],
      ['function', 'plugin-😀', 'register', 56, 56],
      ['namespace', null, 'global', 59, 63],
      ['interface', 'global', 'Window', 60, 62],
      ['variable', 'global.Window', 'shapes', 61, 61],
      ['function', null, 'main', 65, 65],
    ]);
  });

  it('scopes cover export/declare, and an overload set is one scope (signatures + implementation)', async () => {
    const { slice } = await outline('shapes.ts', 'typescript');
    expect(slice('Id')).toBe('export type Id = string | number;');
    expect(slice('Color.Blue 𝒜')).toBe("'Blue 𝒜'");
    expect(slice('Flags.Dirty')).toBe('Dirty = 1 << 0');
    expect(slice('VERSION')).toBe('declare const VERSION: string;');
    expect(slice('Shape.scale')).toBe('scale(by: number): Shape;\n  scale(x: number, y: number): Shape');
    expect(slice('Base.scale')).toMatch(/^scale\(by: number\): Shape;\n {2}scale\(x: number, y: number\): Shape;\n {2}scale\(x: number, y = x\): Shape \{\n {4}return this;\n {2}\}$/);
    expect(slice('parse')).toMatch(/^export function parse\(input: string\): Id;\n[\s\S]*Promise\.resolve\(0\);\n\}$/);
    expect(slice('Geometry.Units.Metric')).toBe("export type Metric = 'mm' | 'cm';");
    expect(slice('global.Window')).toBe('interface Window {\n    shapes: Shape[];\n  }');
  });
});

describe('code outline: Python nested classes, decorators, enums and type aliases (real file)', () => {
  it('names classes at every depth under their qualified parent, decorated scopes from the first decorator', async () => {
    const { symbols, slice } = await outline('models.py', 'python');
    expect(rows(symbols)).toEqual([
      ['type', null, 'Vector', 6, 6],
      ['type', null, 'Pair', 7, 7],
      ['variable', null, 'LIMIT', 8, 8],
      ['class', null, 'Color', 11, 13],
      ['variable', 'Color', 'RED', 12, 12],
      ['variable', 'Color', 'GREEN', 13, 13],
      ['class', null, 'Point', 16, 35],
      ['variable', 'Point', 'x', 18, 18],
      ['variable', 'Point', 'y', 19, 19],
      ['method', 'Point', 'norm', 21, 23],
      ['method', 'Point', 'origin', 25, 28],
      ['class', 'Point', 'Meta', 30, 35],
      ['variable', 'Point.Meta', 'label', 31, 31],
      ['class', 'Point.Meta', 'Options', 33, 35],
      ['method', 'Point.Meta.Options', 'describe', 34, 35],
      ['function', null, 'fetch', 38, 42],
    ]);
    expect(slice('Pair')).toBe('type Pair[T] = tuple[T, T]');
    expect(slice('Point.origin')).toMatch(/^@staticmethod\n {4}@functools\.cache\n {4}def origin\(\) -> "Point":/);
    expect(slice('Point.Meta.label')).toBe('label = "𝒜 point"');
    expect(slice('fetch')).toMatch(/^@functools\.lru_cache\(maxsize=None\)\nasync def fetch[\s\S]*return helper\(\)$/);
  });
});

describe('code outline: JavaScript keeps its own declarations', () => {
  it('has no type declarations; exported arrow and function expressions are functions', async () => {
    const js = await engine.outline('javascript', 'export const f = () => 1;\nexport const g = function () {};\nexport default class K { static s = () => 2 }\n');
    expect(js.symbols.map((s) => [s.kind, s.parent, s.name])).toEqual([['function', null, 'f'], ['function', null, 'g'], ['class', null, 'K'], ['method', 'K', 's']]);
  });
});
