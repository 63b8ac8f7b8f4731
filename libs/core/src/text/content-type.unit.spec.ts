import { contentTypeOf } from './content-type';

describe('contentTypeOf', () => {
  it.each([
    ['README.md', 'text/markdown'],
    ['docs/Guide.MARKDOWN', 'text/markdown'],
    ['package.json', 'application/json'],
    ['.github/workflows/ci.yml', 'application/yaml'],
    ['src/a.ts', 'text/typescript'],
    ['src/view.tsx', 'text/tsx'],
    ['lib/x.mjs', 'text/javascript'],
    ['tool.py', 'text/x-python'],
    ['main.rs', 'text/x-rust'],
    ['Program.cs', 'text/x-csharp'],
    ['notes.txt', 'text/plain'],
    ['Makefile', 'text/plain'],
    ['.gitignore', 'text/plain'],
    ['archive.unknownext', 'text/plain'],
    ['dir.md/file', 'text/plain'],
  ])('%s is %s', (name, type) => expect(contentTypeOf(name)).toBe(type));
});
