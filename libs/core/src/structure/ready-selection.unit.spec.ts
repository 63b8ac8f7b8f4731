import fc from 'fast-check';
import { readySelection, smallestContaining } from './ready-selection';
import { ScopePaths } from './scope-paths';
import { resolveBundle, selectExact } from './scope-selection';
import { qualifiedName, type StructureSymbol } from './structure.port';

const sym = (name: string, parent: string | null, start: number, end: number, kind: StructureSymbol['kind'] = 'section', line = 1): StructureSymbol => ({
  name, kind, parent, start, end, start_line: line, end_line: line,
});

describe('dotted paths the way an agent writes them (pure)', () => {
  // # Guide / ## Options / ### More configuration, ## Reference / ### More configuration, # v1.2 / ## Notes
  const guide = sym('Guide', null, 0, 100);
  const options = sym('Options', 'Guide', 10, 50);
  const more = sym('More configuration', 'Guide.Options', 30, 50);
  const reference = sym('Reference', 'Guide', 50, 100);
  const refMore = sym('More configuration', 'Guide.Reference', 70, 100);
  const release = sym('v1.2', null, 100, 150);
  const notes = sym('Notes', 'v1.2', 120, 150);
  const doc = [guide, options, more, reference, refMore, release, notes];

  it('a trailing run of enclosing scopes names a section under a titled document', () => {
    expect(selectExact(doc, 'Options.More configuration', null)).toEqual({ kind: 'one', symbol: more });
    expect(selectExact(doc, 'Guide.Options.More configuration', null)).toEqual({ kind: 'one', symbol: more });
    expect(selectExact(doc, 'Reference.More configuration', 'section')).toEqual({ kind: 'one', symbol: refMore });
  });

  it('segments are cut at the enclosing scopes, never inside a name that holds a dot', () => {
    expect(selectExact(doc, 'v1.2.Notes', null)).toEqual({ kind: 'one', symbol: notes });
    expect(selectExact(doc, '2.Notes', null)).toEqual({ kind: 'none' });
    expect(new ScopePaths(doc).pathsOf(more)).toEqual(['More configuration', 'Options.More configuration', 'Guide.Options.More configuration']);
  });

  it('a path that names several is refused with all of them; an exact name or parent.name is preferred to a trailing path', () => {
    const twice = [...doc, sym('Options', 'Guide.Reference', 80, 90), sym('More configuration', 'Guide.Reference.Options', 85, 90)];
    expect(selectExact(twice, 'Options.More configuration', null)).toMatchObject({ kind: 'many', total_candidates: 2 });
    const topLevel = [...doc, sym('Options', null, 200, 300), sym('More configuration', 'Options', 250, 300)];
    expect(selectExact(topLevel, 'Options.More configuration', null)).toMatchObject({ kind: 'one', symbol: topLevel[8] });
  });

  it('a class method as Class.method, and a nested one by its trailing parents', () => {
    const code = [sym('ns', null, 0, 100, 'namespace'), sym('Store', 'ns', 10, 90, 'class'), sym('save', 'ns.Store', 20, 40, 'method'), sym('save', null, 100, 120, 'function')];
    expect(selectExact(code, 'Store.save', null)).toEqual({ kind: 'one', symbol: code[2] });
    expect(resolveBundle(code, [{ symbol_name: 'Store.save' }, { symbol_name: 'save', kind: 'function' }])).toEqual({ ok: true, symbols: [code[2], code[3]] });
  });

  it('start_line narrows a selection to the symbols starting on that line', () => {
    const overloads = [sym('f', null, 0, 10, 'function', 1), sym('f', null, 10, 20, 'function', 2)];
    expect(selectExact(overloads, 'f', null, 2)).toEqual({ kind: 'one', symbol: overloads[1] });
  });
});

describe('ready selections (pure)', () => {
  it('is the shortest selection that resolves to exactly that symbol, each one checked', () => {
    const doc = [sym('Guide', null, 0, 100), sym('Options', 'Guide', 10, 50), sym('More', 'Guide.Options', 30, 50), sym('Reference', 'Guide', 50, 100), sym('More', 'Guide.Reference', 70, 100), sym('More', null, 100, 110, 'function')];
    expect(readySelection(doc, doc[2])).toEqual({ symbol_name: 'Options.More' });
    expect(readySelection(doc, doc[4])).toEqual({ symbol_name: 'Reference.More' });
    expect(readySelection(doc, doc[5])).toEqual({ symbol_name: 'More', kind: 'function' });
    expect(readySelection(doc, doc[0])).toEqual({ symbol_name: 'Guide' });
  });

  it('falls back to the start line, and to nothing when even that names two', () => {
    const overloads = [sym('f', null, 0, 10, 'function', 1), sym('f', null, 10, 20, 'function', 2), sym('g', null, 20, 25, 'function', 3), sym('g', null, 25, 30, 'function', 3)];
    expect(readySelection(overloads, overloads[1])).toEqual({ symbol_name: 'f', start_line: 2 });
    expect(readySelection(overloads, overloads[3])).toBeNull();
  });

  it('the smallest scope holding a range; an insertion strictly inside it', () => {
    const doc = [sym('A', null, 0, 100), sym('B', 'A', 10, 50), sym('C', 'A.B', 20, 30)];
    expect(smallestContaining(doc, 22, 28)).toBe(doc[2]);
    expect(smallestContaining(doc, 25, 40)).toBe(doc[1]);
    expect(smallestContaining(doc, 5, 28, 20)).toBe(doc[0]);
    expect(smallestContaining(doc, 20, 30, 20)).toBe(doc[1]);
    expect(smallestContaining(doc, 90, 120)).toBeNull();
  });
});

describe('ready selections over generated outlines (property)', () => {
  // Trees of scopes whose names repeat and hold dots, so that paths collide in every way they can.
  const NAMES = ['a', 'b', 'a.b', 'b.a', 'Options', 'x.y.z'];
  const KINDS: StructureSymbol['kind'][] = ['section', 'class', 'method'];
  type Node = { name: string; kind: StructureSymbol['kind']; line: number; children: Node[] };
  const node: fc.Memo<Node> = fc.memo((depth) =>
    fc.record({
      name: fc.constantFrom(...NAMES),
      kind: fc.constantFrom(...KINDS),
      line: fc.integer({ min: 1, max: 3 }),
      children: depth > 1 ? fc.array(node(depth - 1), { maxLength: 3 }) : fc.constant([]),
    }),
  );
  const flatten = (nodes: Node[], parent: string | null, out: StructureSymbol[] = []): StructureSymbol[] => {
    for (const n of nodes) {
      const start = out.length * 10;
      out.push({ name: n.name, kind: n.kind, parent, start, end: start + 5, start_line: n.line, end_line: n.line });
      flatten(n.children, parent === null ? n.name : `${parent}.${n.name}`, out);
    }
    return out;
  };

  // A twin: of one kind and start line, named as this one is by its name or by its qualified name (a heading `b.a` and an `a` under `b`).
  it('a ready selection resolves to its symbol alone; there is none only for a twin', () => {
    fc.assert(
      fc.property(fc.array(node(3), { minLength: 1, maxLength: 4 }), (roots) => {
        const symbols = flatten(roots, null);
        const paths = new ScopePaths(symbols);
        for (const s of symbols) {
          for (const path of paths.pathsOf(s)) expect(paths.names(s, path)).toBe(true);
          const ready = readySelection(symbols, s, paths);
          const twin = symbols.some((o) => o !== s && o.kind === s.kind && o.start_line === s.start_line && (o.name === s.name || qualifiedName(o) === s.name));
          if (ready === null) {
            expect(twin).toBe(true);
            continue;
          }
          expect(selectExact(symbols, ready.symbol_name, ready.kind ?? null, ready.start_line ?? null)).toEqual({ kind: 'one', symbol: s });
        }
      }),
      { numRuns: 300 },
    );
  });
});
