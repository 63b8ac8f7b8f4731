import { codeParser } from '@palimpsest/structure/code-grammars';
import { createShellParser } from './command-line-reader';

// The code outlines and the command gate share web-tree-sitter's runtime: loading one after the other must
// leave both parsing (a second runtime made every language loaded under the first report version 0).
describe('one tree-sitter runtime for code outlines and the shell parser', () => {
  it('parses TypeScript, then a command line, then TypeScript again', async () => {
    const ts = await codeParser('typescript');
    expect(ts.parse('const a = 1;')!.rootNode.type).toBe('program');
    const shell = await createShellParser();
    expect(shell.parse('git status')).toMatchObject({ kind: 'argv' });
    const again = await codeParser('python');
    expect(again.parse('x = 1\n')!.rootNode.type).toBe('module');
    expect(ts.parse('let b = 2;')!.rootNode.type).toBe('program');
  });
});
