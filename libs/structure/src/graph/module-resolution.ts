import type { GraphLanguage, ProjectState } from '@palimpsest/core/structure/code-graph.port';

/**
 * Where an import points within a project state (declared layer): a relative TypeScript/JavaScript
 * specifier to a file of the state (extensions and index files tried as the compiler's bundler
 * resolution does, `.js` naming its `.ts` source), a Python module to `mod.py` or `mod/__init__.py`.
 * `external` is a package outside the state; `unresolved` a relative import naming no file of it.
 */
export type Resolution = { kind: 'file'; path: string } | { kind: 'external' } | { kind: 'unresolved' };

const SCRIPT_EXTENSIONS = ['.ts', '.tsx', '.d.ts', '.js', '.jsx', '.mjs', '.cjs', '.mts', '.cts'];
const JS_TO_TS: Record<string, string[]> = { '.js': ['.ts', '.tsx'], '.jsx': ['.tsx'], '.mjs': ['.mts'], '.cjs': ['.cts'] };

export function resolveImport(state: ProjectState, from: string, source: string, language: GraphLanguage): Resolution {
  return language === 'python' ? resolvePython(state, from, source) : resolveScript(state, from, source);
}

function dirname(path: string): string {
  const i = path.lastIndexOf('/');
  return i < 0 ? '' : path.slice(0, i);
}

/** Joins and normalizes `a/b` + `../c`; null when it climbs above the root. */
function join(dir: string, rel: string): string | null {
  const parts = dir === '' ? [] : dir.split('/');
  for (const part of rel.split('/')) {
    if (part === '' || part === '.') continue;
    if (part === '..') {
      if (parts.length === 0) return null;
      parts.pop();
    } else parts.push(part);
  }
  return parts.join('/');
}

function resolveScript(state: ProjectState, from: string, source: string): Resolution {
  if (!source.startsWith('.') && !source.startsWith('/')) return { kind: 'external' };
  const base = join(source.startsWith('/') ? '' : dirname(from), source);
  if (base === null) return { kind: 'unresolved' };
  const candidates = [base];
  const ext = Object.keys(JS_TO_TS).find((e) => base.endsWith(e));
  if (ext) for (const ts of JS_TO_TS[ext]) candidates.push(base.slice(0, -ext.length) + ts);
  for (const e of SCRIPT_EXTENSIONS) candidates.push(base + e);
  for (const e of SCRIPT_EXTENSIONS) candidates.push(`${base}/index${e}`);
  const hit = candidates.find((c) => state.has(c));
  return hit ? { kind: 'file', path: hit } : { kind: 'unresolved' };
}

function resolvePython(state: ProjectState, from: string, source: string): Resolution {
  const dots = /^\.*/.exec(source)![0].length;
  const rest = source.slice(dots).split('.').filter((p) => p !== '').join('/');
  let dir = '';
  if (dots > 0) {
    const up = join(dirname(from), Array(dots - 1).fill('..').join('/'));
    if (up === null) return { kind: 'unresolved' };
    dir = up;
  }
  const base = rest === '' ? dir : dir === '' ? rest : `${dir}/${rest}`;
  for (const candidate of [`${base}.py`, `${base}/__init__.py`]) if (state.has(candidate.replace(/^\//, ''))) return { kind: 'file', path: candidate.replace(/^\//, '') };
  return dots > 0 ? { kind: 'unresolved' } : { kind: 'external' };
}
