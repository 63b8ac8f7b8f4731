import type { ShellParser } from '@palimpsest/core/policy/command-line';
import { createShellParser } from './command-line-reader';

/** tree-sitter-bash reads a line into the argv bash would build, or names what keeps it from being one plain command. */

let parser: ShellParser;
beforeAll(async () => {
  parser = await createShellParser();
});

describe('reading a command line', () => {
  it.each([
    ['ls -la src', ['ls', '-la', 'src']],
    ['  git   status  ', ['git', 'status']],
    ['ls\n', ['ls']],
    ["r\\m -rf 'a b' \"c d\"", ['rm', '-rf', 'a b', 'c d']],
    ['"rm" x"y"z \'q\'r', ['rm', 'xyz', 'qr']],
    ['echo "a\\"b\\\\c\\$d\\e"', ['echo', 'a"b\\c$d\\e']],
    ["echo '$HOME' '`id`' '*'", ['echo', '$HOME', '`id`', '*']],
    ['echo a\\ b \\*', ['echo', 'a b', '*']],
    ['ls \\\n  -la', ['ls', '-la']],
    ['git log @{u}..HEAD', ['git', 'log', '@{u}..HEAD']],
    ['sleep 10 -5', ['sleep', '10', '-5']],
    ['echo a#b', ['echo', 'a#b']],
    ['find . -name "*.ts"', ['find', '.', '-name', '*.ts']],
    ['git commit -m "fix: x = y"', ['git', 'commit', '-m', 'fix: x = y']],
  ])('%j is argv %j', (line, argv) => {
    expect(parser.parse(line)).toEqual({ kind: 'argv', argv });
  });

  it.each([
    ['a; b', 'separator (; or newline)'],
    ['a\nb', 'separator (; or newline)'],
    ['a;', 'separator (; or newline)'],
    ['a && b', 'separator (&& ||)'],
    ['a || b', 'separator (&& ||)'],
    ['a | b', 'pipe'],
    ['a &', 'background'],
    ['ls # note', 'comment'],
    ['echo $(id)', 'command substitution'],
    ['echo `id`', 'command substitution'],
    ['echo "x$(id)"', 'command substitution'],
    ['echo "$HOME"', 'variable'],
    ['echo $HOME', 'variable'],
    ['echo ${HOME}', 'variable'],
    ['$X -l', 'variable'],
    ['echo $((1+2))', 'arithmetic expansion'],
    ['diff <(ls) <(ls)', 'process substitution'],
    ['ls > out', 'redirection'],
    ['ls 2>&1', 'redirection'],
    ['cat < in', 'redirection'],
    ['cat <<EOF\nx\nEOF', 'redirection'],
    ['(ls)', 'subshell'],
    ['{ ls; }', 'group'],
    ['X=1 ls', 'variable assignment'],
    ['X=1', 'variable assignment'],
    ['! ls', 'negation'],
    ['if true; then ls; fi', 'compound command'],
    ['ls *.ts', 'glob'],
    ['ls src/?', 'glob'],
    ['ls [ab]', 'glob'],
    ['ls ~/x', 'tilde expansion'],
    ['echo {a,b}', 'brace expansion'],
    ['echo x{1..3}', 'brace expansion'],
    ["echo $'\\x41'", "$'…' quoting"],
    ["ls 'open", 'does not parse'],
    ['ls "open', 'does not parse'],
    ['', 'empty line'],
    ['   ', 'empty line'],
    ['ls\0x', 'NUL byte'],
  ])('%j is refused as %s', (line, construct) => {
    expect(parser.parse(line)).toEqual({ kind: 'shell', construct });
  });
});
