/**
 * Lines that would get past a command policy if it held only at the first word. `{M}` is a marker file
 * the line would create if it ran (`{V}` a victim file it would remove); `control` says the corpus runs
 * the line through a real shell afterwards to prove it does create the marker. `policy` picks the
 * corpus's allow-list policy (`list`), its deny-only policy (`deny`), or the list with approve (`approve`).
 */
export interface BypassCase {
  line: string;
  rule: string;
  policy?: 'list' | 'deny';
  control?: boolean;
  /** Files the case's agent wrote through Palimpsest. */
  written?: string[];
}

const syntax: BypassCase[] = [
  { line: 'ls; touch {M}', rule: 'shell: separator (; or newline)', control: true },
  { line: 'ls && touch {M}', rule: 'shell: separator (&& ||)', control: true },
  { line: 'false || touch {M}', rule: 'shell: separator (&& ||)', control: true },
  { line: 'ls | touch {M}', rule: 'shell: pipe', control: true },
  { line: 'ls |& touch {M}', rule: 'shell: pipe' },
  { line: 'ls\ntouch {M}', rule: 'shell: separator (; or newline)', control: true },
  { line: 'echo $(touch {M})', rule: 'shell: command substitution', control: true },
  { line: 'echo `touch {M}`', rule: 'shell: command substitution', control: true },
  { line: 'echo "$(touch {M})"', rule: 'shell: command substitution', control: true },
  { line: 'cat <(touch {M})', rule: 'shell: process substitution' },
  { line: 'ls > {M}', rule: 'shell: redirection', control: true },
  { line: 'ls >> {M}', rule: 'shell: redirection', control: true },
  { line: 'ls 2> {M}', rule: 'shell: redirection', control: true },
  { line: 'cat <<EOF > {M}\nx\nEOF', rule: 'shell: redirection', control: true },
  { line: 'cat <<< x > {M}', rule: 'shell: redirection' },
  { line: '(touch {M})', rule: 'shell: subshell', control: true },
  { line: '{ touch {M}; }', rule: 'shell: group', control: true },
  { line: 'touch {M} &', rule: 'shell: background' },
  { line: '$T {M}', rule: 'shell: variable' },
  { line: '${T:-touch} {M}', rule: 'shell: variable', control: true },
  { line: 'ls $HOME; touch {M}', rule: 'shell: separator (; or newline)', control: true },
  { line: '/usr/bin/tou?h {M}', rule: 'shell: glob', control: true },
  { line: '/usr/bin/touc* {M}', rule: 'shell: glob', control: true },
  { line: '~/../../usr/bin/touch {M}', rule: 'shell: tilde expansion' },
  { line: 'T=1 touch {M}', rule: 'shell: variable assignment', control: true },
  { line: '! touch {M}', rule: 'shell: negation', control: true },
  { line: 'if true; then touch {M}; fi', rule: 'shell: compound command', control: true },
  { line: 'for i in 1; do touch {M}; done', rule: 'shell: compound command', control: true },
  { line: 'f() { touch {M}; }; f', rule: 'shell: separator (; or newline)', control: true },
  { line: 'touch {M}{,.2}', rule: 'shell: brace expansion', control: true },
  { line: "ls 'unterminated; touch {M}", rule: 'shell: does not parse' },
  { line: 'ls $((1+1)); touch {M}', rule: 'shell: separator (; or newline)' },
  { line: "$'\\x74ouch' {M}", rule: "shell: $'…' quoting" },
  { line: 'eval touch {M}', rule: 'eval: shell builtin', control: true },
  { line: 'exec touch {M}', rule: 'exec: shell builtin', control: true },
  { line: 'command touch {M}', rule: 'command: shell builtin', control: true },
  { line: '. ./evil.sh', rule: '.: shell builtin', control: true },
  { line: 'source ./evil.sh', rule: 'source: shell builtin' },
];

/** A deny-only policy (allow_all, deny touch and rm -rf): spellings of the program and of its options. */
const spelling: BypassCase[] = [
  { line: 'touch {M}', rule: 'deny[0]: touch', control: true },
  { line: '/usr/bin/touch {M}', rule: 'deny[0]: touch', control: true },
  { line: '/usr//bin/./touch {M}', rule: 'deny[0]: touch', control: true },
  { line: '/usr/bin/../bin/touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 't\\ouch {M}', rule: 'deny[0]: touch', control: true },
  { line: "'touch' {M}", rule: 'deny[0]: touch', control: true },
  { line: '"touch" {M}', rule: 'deny[0]: touch', control: true },
  { line: "to'uch' {M}", rule: 'deny[0]: touch', control: true },
  { line: 'tou"ch" {M}', rule: 'deny[0]: touch', control: true },
  { line: 'TOUCH {M}', rule: 'deny[0]: touch' },
  { line: './touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'env touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'env -i /usr/bin/touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'timeout 5 touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'timeout -s KILL 5 touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'nice touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'nice -n 5 touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'nohup touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'stdbuf -oL touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'time -p touch {M}', rule: 'deny[0]: touch' },
  { line: 'timeout 5 nice env touch {M}', rule: 'deny[0]: touch', control: true },
  { line: 'env T=1 touch {M}', rule: 'env: NAME=value', control: true },
  { line: 'env -S "touch {M}"', rule: 'env: -S', control: true },
  { line: 'sudo touch {M}', rule: 'sudo: runs another program' },
  { line: 'setsid touch {M}', rule: 'setsid: runs another program', control: true },
  { line: 'xargs touch {M}', rule: 'xargs: runs another program', control: true },
  { line: 'flock {M}.lock touch {M}', rule: 'flock: runs another program', control: true },
  { line: 'taskset -c 0 touch {M}', rule: 'taskset: runs another program', control: true },
  { line: 'sh -c "touch {M}"', rule: 'sh: -c', control: true },
  { line: 'rm -rf {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm -fr {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm -r -f {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm -f -r {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm -R -f {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm --recursive --force {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm --force --recursive {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm --rec --forc {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'rm -vfR {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: '/bin/rm -rf {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: 'r\\m -r\\f {V}', rule: 'deny[1]: rm -rf', control: true },
  { line: "'rm' '-rf' {V}", rule: 'deny[1]: rm -rf', control: true },
  { line: 'timeout 9 rm -rf {V}', rule: 'deny[1]: rm -rf', control: true },
].map((c) => ({ ...c, policy: 'deny' as const }));

export const BYPASS_SYNTAX = syntax;
export const BYPASS_SPELLING = spelling;
