import { posix } from 'node:path';
import fc from 'fast-check';
import { checkWorkspacePath, type WorkspacePathCode } from './workspace-path';

/** The hostile corpus: every path here must be refused, with this code (and this component when one is to blame). */
const HOSTILE: Array<[string, unknown, WorkspacePathCode, number?]> = [
  ['parent', '..', 'PATH_ESCAPE', 0],
  ['parent then file', '../etc/passwd', 'PATH_ESCAPE', 0],
  ['climbing past the root', 'a/../../b', 'PATH_ESCAPE', 2],
  ['climbing out and back in', '../wt/a', 'PATH_ESCAPE', 0],
  ['climbing out behind a dot', './../a', 'PATH_ESCAPE', 1],
  ['escape beside an empty component', 'a//../../b', 'PATH_ESCAPE', 3],
  ['an escape outranks a bad name', 'CON/../../a', 'PATH_ESCAPE', 2],
  ['absolute', '/etc/passwd', 'PATH_ESCAPE'],
  ['root itself', '/', 'PATH_ESCAPE'],
  ['double slash prefix', '//server/share', 'PATH_ESCAPE'],
  ['drive letter', 'C:/Windows/win.ini', 'PATH_ESCAPE'],
  ['drive-relative', 'c:boot.ini', 'PATH_ESCAPE'],
  ['a publication staging file', 'docs/.palimpsest-0b6c2b44-0.stage', 'PATH_RESERVED', 1],
  ['empty', '', 'PATH_INVALID'],
  ['not a string', 42, 'PATH_INVALID'],
  ['null', null, 'PATH_INVALID'],
  ['the root, for a file', '.', 'PATH_INVALID'],
  ['the root by a climb, for a file', 'a/..', 'PATH_INVALID'],
  ['the root by slashes, for a file', './/', 'PATH_INVALID'],
  ['trailing slash, for a file', 'a/b/', 'PATH_INVALID'],
  ['trailing parent, for a file', 'a/b/..', 'PATH_INVALID'],
  ['Palimpsest\'s directory', '.palimpsest', 'PATH_RESERVED', 0],
  ['the gateway address', '.palimpsest/data.gateway.json', 'PATH_RESERVED', 0],
  ['the gateway address, dotted', './.palimpsest/data.gateway.json', 'PATH_RESERVED', 0],
  ['the data directory, doubled slash', '.palimpsest//data/PG_VERSION', 'PATH_RESERVED', 0],
  ['the data directory, climbed back into', 'a/../.palimpsest/data/PG_VERSION', 'PATH_RESERVED', 0],
  ['a nested store', 'packages/web/.palimpsest/data.lock', 'PATH_RESERVED', 2],
  ['NUL', 'a\u0000b', 'PATH_INVALID'],
  ['NUL after a name (C truncation)', 'notes.txt\u0000.png', 'PATH_INVALID'],
  ['newline', 'a\nb', 'PATH_INVALID'],
  ['tab', 'a\tb', 'PATH_INVALID'],
  ['escape character', 'a\u001b[31m', 'PATH_INVALID'],
  ['DEL', 'a\u007f', 'PATH_INVALID'],
  ['C1 control', 'a\u0085b', 'PATH_INVALID'],
  ['backslash', 'a\\b', 'PATH_INVALID'],
  ['backslash escape', '..\\..\\etc', 'PATH_INVALID'],
  ['lone high surrogate', 'a\ud800', 'PATH_INVALID'],
  ['lone low surrogate', '\udc00b', 'PATH_INVALID'],
  ['device name', 'CON', 'PATH_RESERVED', 0],
  ['device name, lower case', 'src/nul', 'PATH_RESERVED', 1],
  ['device name with an extension', 'docs/aux.md', 'PATH_RESERVED', 1],
  ['device name with a double extension', 'Com1.tar.gz', 'PATH_RESERVED', 0],
  ['device name, space before the dot', 'LPT9 .txt', 'PATH_RESERVED', 0],
  ['superscript COM', 'COM¹', 'PATH_RESERVED', 0],
  ['console input', 'conin$', 'PATH_RESERVED', 0],
  ['trailing dot', 'a/readme.', 'PATH_RESERVED', 1],
  ['trailing space', 'readme ', 'PATH_RESERVED', 0],
  ['dot-dot-dot', '...', 'PATH_RESERVED', 0],
  ['alternate data stream', 'a.txt:secret', 'PATH_RESERVED', 0],
  ['stream type', 'a.txt::$DATA', 'PATH_RESERVED', 0],
  ['wildcard', 'a/*.ts', 'PATH_RESERVED', 1],
  ['question mark', 'a?', 'PATH_RESERVED', 0],
  ['pipe', 'a|b', 'PATH_RESERVED', 0],
  ['angle brackets', '<a>', 'PATH_RESERVED', 0],
  ['double quote', 'a"b', 'PATH_RESERVED', 0],
  ['component too long', 'x'.repeat(256), 'PATH_TOO_LONG', 0],
  ['component too long in UTF-8', 'é'.repeat(128), 'PATH_TOO_LONG', 0],
  ['path too long', Array.from({ length: 20 }, () => 'y'.repeat(250)).join('/'), 'PATH_TOO_LONG'],
];

/** Paths that are fine as they are, including names that merely look like the refused ones. */
const ACCEPTED: Array<[string, string[]]> = [
  ['a', ['a']],
  ['src/index.ts', ['src', 'index.ts']],
  ['.gitignore', ['.gitignore']],
  ['.config/app/.env', ['.config', 'app', '.env']],
  ['..hidden', ['..hidden']],
  ['a..b', ['a..b']],
  ['CONSOLE.md', ['CONSOLE.md']],
  ['COM10', ['COM10']],
  ['nullable.ts', ['nullable.ts']],
  ['auxiliary/x', ['auxiliary', 'x']],
  [' leading space', [' leading space']],
  ['dir with spaces/file name.txt', ['dir with spaces', 'file name.txt']],
  ['é/日本語/🙂.txt', ['é', '日本語', '🙂.txt']],
  ['x'.repeat(255), ['x'.repeat(255)]],
  ['a-b_c+d=e,f;g@h#i$j%k&l(m)n[o]p{q}r~s`t!u', ['a-b_c+d=e,f;g@h#i$j%k&l(m)n[o]p{q}r~s`t!u']],
  ['.palimpsestrc', ['.palimpsestrc']],
  ['.git/config', ['.git', 'config']],
];

/** Benign spellings that stay inside the root: each names its canonical path. */
const NORMALIZED: Array<[string, string]> = [
  ['./src/a.ts', 'src/a.ts'],
  ['src/../src/a.ts', 'src/a.ts'],
  ['src//a.ts', 'src/a.ts'],
  ['src/./a.ts', 'src/a.ts'],
  ['.//src///./a.ts', 'src/a.ts'],
  ['a/b/../../c', 'c'],
  ['a/../a/b', 'a/b'],
  ['CON/../a', 'a'],
  ['./.gitignore', '.gitignore'],
];

describe('checkWorkspacePath', () => {
  // A rest parameter: jest hands a callback to a test function declaring more parameters than its row has.
  it.each(HOSTILE)('refuses %s', (...row) => {
    const [, path, code, component] = row;
    const check = checkWorkspacePath(path);
    expect(check.kind).toBe('refused');
    if (check.kind !== 'refused') return;
    expect(check.refusal.code).toBe(code);
    expect(check.refusal.component).toBe(component);
    expect(check.refusal.message.length).toBeGreaterThan(10);
  });

  it.each(ACCEPTED)('accepts %j', (path, components) => {
    expect(checkWorkspacePath(path)).toEqual({ kind: 'valid', value: { path, components } });
  });

  it.each(NORMALIZED)('resolves %j to %j', (requested, path) => {
    expect(checkWorkspacePath(requested)).toEqual({ kind: 'valid', value: { path, components: path.split('/') } });
  });

  it('takes the root and a trailing slash for a directory, and keeps escapes refused', () => {
    for (const root of ['.', './', 'a/..', './/.']) expect(checkWorkspacePath(root, { directory: true })).toEqual({ kind: 'valid', value: { path: '.', components: [] } });
    expect(checkWorkspacePath('src/', { directory: true })).toEqual({ kind: 'valid', value: { path: 'src', components: ['src'] } });
    expect(checkWorkspacePath('src/lib/..', { directory: true })).toEqual({ kind: 'valid', value: { path: 'src', components: ['src'] } });
    expect(checkWorkspacePath('../', { directory: true })).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_ESCAPE' } });
    expect(checkWorkspacePath('.palimpsest/', { directory: true })).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_RESERVED' } });
  });

  it('names the canonical path when it refuses a component of a rewritten spelling', () => {
    const check = checkWorkspacePath('./src//CON');
    expect(check).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_RESERVED', component: 1 } });
    if (check.kind === 'refused') expect(check.refusal.message).toContain('"src/CON"');
  });

  it('names no raw control character in a message (it would reach logs and terminals)', () => {
    for (const [, path] of HOSTILE) {
      const check = checkWorkspacePath(path);
      if (check.kind === 'refused') expect(check.refusal.message).not.toMatch(/[\u0000-\u001f\u007f-\u009f]/);
    }
  });

  it('accepts a path exactly at the length limit and refuses one byte more', () => {
    const atLimit = Array.from({ length: 16 }, () => 'z'.repeat(255)).join('/');
    expect(Buffer.byteLength(atLimit)).toBe(4095);
    expect(checkWorkspacePath(atLimit).kind).toBe('valid');
    expect(checkWorkspacePath(`${atLimit}z`)).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_TOO_LONG' } });
  });

  it('normalizes as POSIX does, to a spelling that is its own canonical form, or refuses a climb above the root', () => {
    const component = fc.constantFrom('a', 'b', 'src', 'x.ts', '.', '..', '');
    fc.assert(
      fc.property(fc.array(component, { minLength: 1, maxLength: 8 }), (parts) => {
        const requested = parts.join('/');
        if (requested === '' || requested.startsWith('/')) return;
        const check = checkWorkspacePath(requested, { directory: true });
        const posixForm = posix.normalize(requested).replace(/\/$/, '');
        if (posixForm === '..' || posixForm.startsWith('../')) {
          expect(check).toMatchObject({ kind: 'refused', refusal: { code: 'PATH_ESCAPE' } });
          return;
        }
        expect(check).toMatchObject({ kind: 'valid', value: { path: posixForm } });
        if (check.kind !== 'valid') return;
        expect(checkWorkspacePath(check.value.path, { directory: true })).toEqual(check);
      }),
    );
  });
});
