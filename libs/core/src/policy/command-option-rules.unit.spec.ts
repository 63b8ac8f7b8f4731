import { programCheck } from './command-option-rules';

const check = (line: string) => programCheck(line.split(' '));
const hit = (line: string) => check(line).hit?.rule ?? null;

describe('built-in option rules', () => {
  it('git: global options, foreign subcommands, program-running options and config writes', () => {
    expect(hit('git status')).toBeNull();
    expect(hit('git --no-pager log -p')).toBeNull();
    expect(hit('git -c x=y status')).toBe('git: -c');
    expect(hit('git --exec-path')).toBe('git: --exec-path');
    expect(hit('git --git-dir=x log')).toBe('git: --git-dir');
    expect(hit('git lg')).toBe('git: lg is not a git command');
    expect(hit('git rebase -ix true HEAD')).toBe('git: rebase -i');
    expect(hit('git config user.name')).toBeNull();
    expect(hit('git config --get core.pager')).toBeNull();
    expect(hit('git config --list')).toBeNull();
    expect(hit('git config core.pager less')).toBe('git: config');
    expect(hit('git config --unset core.pager')).toBe('git: config');
    expect(hit('git config --file x --list')).toBe('git: config');
    expect(check('git status').files).toContain('.git/config');
    expect(check('git status').files).toContain('.git/hooks/pre-commit');
  });

  it('sed: only scripts that read and edit the stream pass', () => {
    for (const ok of ['sed -n 1,5p f', 'sed s/a/b/g f', 'sed -E s/(a)/\\1/2 f', 'sed -i.bak /x/d f', 'sed -n $= f', 'sed y/abc/xyz/ f', 'sed 1!G;h;$!d f', 'sed --debug -e p f']) {
      expect([ok, hit(ok)]).toEqual([ok, null]);
    }
    expect(hit('sed 1e f')).toBe('sed: e');
    expect(hit('sed /x/e f')).toBe('sed: e');
    expect(hit('sed s/a/b/ge f')).toBe('sed: s///e');
    expect(hit('sed s/a/b/w f')).toBe('sed: s///w');
    expect(hit('sed -n $W f')).toBe('sed: W');
    expect(hit('sed -s -f x f')).toBe('sed: -f');
    expect(hit('sed --file=x f')).toBe('sed: -f');
    expect(hit('sed 1K f')).toBe('sed: K');
  });

  it('awk: programs that run or write, and programs from files', () => {
    expect(hit('awk {print} f')).toBeNull();
    expect(hit('awk -F, -v n=1 $1>n f')).toBeNull();
    expect(hit('awk BEGIN{system("x")}')).toBe('awk: runs or writes');
    expect(hit('gawk -e BEGIN{x|getline}')).toBe('gawk: runs or writes');
    expect(hit('awk -f p.awk')).toBe('awk: -f');
    expect(hit('awk --load x p')).toBe('awk: --load');
  });

  it('interpreters: inline code, code loaded by options, code from input; a script is a file to check', () => {
    expect(check('python3 -m pytest -q')).toEqual({ hit: null, files: ['pytest.py', 'pytest/__main__.py', 'pytest/__init__.py'] });
    expect(check('python3.12 -B ./tools/gen.py')).toEqual({ hit: null, files: ['tools/gen.py'] });
    expect(hit('python -c 1')).toBe('python: -c');
    expect(hit('python3 -Bc 1')).toBe('python3: -c');
    expect(hit('node --inspect=0.0.0.0 x.js')).toBe('node: --inspect');
    expect(hit('node --loader ./l.mjs x.js')).toBe('node: --loader');
    expect(hit('node --version')).toBeNull();
    expect(check('node --run build').files).toEqual(['package.json']);
    expect(hit('perl -Mstrict x.pl')).toBe('perl: -M');
    expect(hit('bash -lc x')).toBe('bash: -c');
    expect(hit('bash --rcfile x')).toBe('bash: --rcfile');
    expect(check('bash -e scripts/ci.sh').files).toEqual(['scripts/ci.sh']);
    expect(check('/usr/bin/env').files).toEqual([]);
  });

  it('package managers, make, find, rg, tar and the rest', () => {
    expect(check('npm run build').files).toEqual(['package.json', '.npmrc']);
    expect(check('npm --version').files).toEqual([]);
    expect(check('yarn build').files).toContain('.yarnrc.yml');
    expect(hit('pnpm dlx cowsay')).toBe('pnpm: dlx');
    expect(hit('npm --prefix=/tmp/x test')).toBe('npm: --prefix');
    expect(check('make -f build/rules.mk all').files).toEqual(['Makefile', 'makefile', 'GNUmakefile', 'build/rules.mk']);
    expect(hit('make -sC sub')).toBe('make: -C');
    expect(hit('make CFLAGS+=-O2')).toBe('make: NAME=value');
    expect(hit('find . -name x -print')).toBeNull();
    expect(hit('find . -okdir rm {} ;')).toBe('find: -okdir');
    expect(hit('find -- . -exec rm {} ;')).toBe('find: -exec');
    expect(hit('rg -- --pre')).toBeNull();
    expect(hit('rg --pretty x')).toBeNull();
    expect(hit('rg --pre=x y')).toBe('rg: --pre');
    expect(hit('tar xIf a b')).toBe('tar: -I');
    expect(hit('tar --to-comm=x -xf a')).toBe('tar: --to-command');
    expect(hit('vim +!id')).toBe('vim: +command');
    expect(hit('ssh -oProxyCommand=x h')).toBe('ssh: -o');
    expect(hit('rsync -av --rsh=x a b')).toBe('rsync: --rsh');
    expect(hit('man -P x ls')).toBe('man: -P');
    expect(check('./scripts/build.sh').files).toEqual(['scripts/build.sh']);
    expect(check('constructor').hit).toBeNull();
  });
});
