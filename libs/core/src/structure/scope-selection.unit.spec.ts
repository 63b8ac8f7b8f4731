import { CodePointIndex } from '../text/code-points';
import { bundleCaps, discoverCandidates, isBlankSelector, resolveBundle, SCOPE_LIMITS, selectExact } from './scope-selection';
import { scopePage } from './scope-page';
import type { StructureSymbol } from './structure.port';
import { lineAt, lineStarts } from './symbol-lines';

const sym = (name: string, parent: string | null, start: number, end: number, kind: StructureSymbol['kind'] = 'section'): StructureSymbol => ({
  name, kind, parent, start, end, start_line: 1, end_line: 1,
});

describe('scope selection (pure)', () => {
  const symbols = [sym('Install', null, 0, 10), sym('Install', 'Guide', 20, 30), sym('Installer', null, 40, 50, 'function'), sym('Usage', null, 60, 60)];

  it('refuses blank and Unicode-whitespace selectors, never trims nonblank ones', () => {
    expect(isBlankSelector('')).toBe(true);
    expect(isBlankSelector(' \t\n\u00a0\u2003\u3000\ufeff')).toBe(true);
    expect(isBlankSelector(' x ')).toBe(false);
    expect(selectExact(symbols, ' Install', null)).toEqual({ kind: 'none' });
  });

  it('discovery ranks exact, then prefix, then substring, and filters by kind', () => {
    expect(discoverCandidates(symbols, 'INSTALL', null).candidates.map((s) => s.name)).toEqual(['Install', 'Install', 'Installer']);
    expect(discoverCandidates(symbols, 'guide.inst', null).candidates).toEqual([symbols[1]]);
    expect(discoverCandidates(symbols, null, 'function').candidates).toEqual([symbols[2]]);
  });

  it('discovery and ambiguity are bounded at 200 with total and truncation', () => {
    const many = Array.from({ length: 250 }, (_, i) => sym('dup', `p${i}`, i * 2, i * 2 + 1));
    const found = selectExact(many, 'dup', null);
    expect(found).toMatchObject({ kind: 'many', total_candidates: 250, candidates_truncated: true });
    expect(found.kind === 'many' && found.candidates.length).toBe(SCOPE_LIMITS.candidates);
    expect(discoverCandidates(many, null, null)).toMatchObject({ total_candidates: 250, candidates_truncated: true });
  });

  it('exact selection by name or parent.name; several matches never pick one', () => {
    expect(selectExact(symbols, 'Guide.Install', null)).toEqual({ kind: 'one', symbol: symbols[1] });
    expect(selectExact(symbols, 'Install', null)).toMatchObject({ kind: 'many', total_candidates: 2, candidates_truncated: false });
    expect(selectExact(symbols, 'Installer', 'section')).toEqual({ kind: 'none' });
  });

  it('bundles: exact, unique, non-empty and disjoint, failing with the selection index', () => {
    expect(resolveBundle(symbols, [{ symbol_name: 'Guide.Install' }, { symbol_name: 'Installer' }])).toEqual({ ok: true, symbols: [symbols[1], symbols[2]] });
    expect(resolveBundle(symbols, [{ symbol_name: 'Installer' }, { symbol_name: 'Nope' }])).toMatchObject({ ok: false, code: 'SCOPE_NOT_FOUND', selection_index: 1 });
    expect(resolveBundle(symbols, [{ symbol_name: 'Install' }])).toMatchObject({ ok: false, code: 'AMBIGUOUS_SCOPE_SELECTION', selection_index: 0, candidates: { total_candidates: 2 } });
    expect(resolveBundle(symbols, [{ symbol_name: 'Installer' }, { symbol_name: 'Installer' }])).toMatchObject({ code: 'DUPLICATE_SCOPE_SELECTION', selection_index: 1 });
    expect(resolveBundle(symbols, [{ symbol_name: 'Installer' }, { symbol_name: 'Installer', kind: 'function' }])).toMatchObject({ code: 'DUPLICATE_SCOPE_SELECTION', selection_index: 1 });
    expect(resolveBundle(symbols, [{ symbol_name: 'Usage' }])).toMatchObject({ code: 'EMPTY_SCOPE_SELECTION', selection_index: 0 });
    const nested = [sym('A', null, 0, 100), sym('B', 'A', 10, 20)];
    expect(resolveBundle(nested, [{ symbol_name: 'A.B' }, { symbol_name: 'A' }])).toMatchObject({ code: 'OVERLAPPING_SCOPE_SELECTION', selection_index: 1 });
  });

  it('bundle caps: 65,536 code points of contents, 32,768 of first pages', () => {
    const big = [sym('a', null, 0, 40000), sym('b', null, 40000, 70000)];
    expect(bundleCaps(big, 4000)).toMatchObject({ code: 'BUNDLE_RESPONSE_TOO_LARGE', selection_index: null });
    const wide = Array.from({ length: 9 }, (_, i) => sym(`s${i}`, null, i * 4000, (i + 1) * 4000));
    expect(bundleCaps(wide.slice(0, 8), 4000)).toBeNull();
    expect(bundleCaps(wide, 4000)).toMatchObject({ code: 'BUNDLE_RESPONSE_TOO_LARGE' });
    expect(bundleCaps(wide, 3000)).toBeNull();
  });

  it('pages a scope in code points with absolute line starts', () => {
    const text = '😀a\nbc\nd😀e\nf';
    const index = new CodePointIndex(text);
    const starts = lineStarts(text);
    expect(starts).toEqual([0, 3, 6, 10]);
    expect(lineAt(starts, 6)).toBe(3);
    const first = scopePage(index, starts, { scope_start: 1, scope_end: 11 }, 0, 4, true);
    expect(first).toMatchObject({ start: 1, end: 5, text: 'a\nbc', truncated: true, next_offset: 4, next_start: 5, start_line: 1, end_line: 2, line_starts: [{ line: 2, start: 3 }] });
    const last = scopePage(index, starts, { scope_start: 1, scope_end: 11 }, 4, 8000, false);
    expect(last).toMatchObject({ start: 5, end: 11, text: '\nd😀e\nf', truncated: false, next_offset: null, next_start: null });
    expect(last.line_starts).toBeUndefined();
  });
});
