import { spawn, type ChildProcess } from 'node:child_process';
import { resolve } from 'node:path';

const LIBS = resolve(__dirname, '..', '..', '..');

/**
 * A real second Node process running `script` (JavaScript), which may `require()` a `.ts` module of this
 * repository by absolute path: it is compiled on load with @swc/core, the compiler Jest uses, and its
 * @palimpsest/<lib>/… imports resolve as tsconfig.json maps them (libs/<lib>/src/…). `env` is the child's
 * whole environment.
 */
export function spawnNode(script: string, env: NodeJS.ProcessEnv = process.env): ChildProcess {
  const hook = `
    const fs = require('node:fs');
    const path = require('node:path');
    const Module = require('node:module');
    const swc = require('@swc/core');
    const resolveFilename = Module._resolveFilename;
    Module._resolveFilename = function (request, ...rest) {
      const m = /^@palimpsest\\/([a-z]+)\\/(.*)$/.exec(request);
      return resolveFilename.call(this, m ? path.join(${JSON.stringify(LIBS)}, m[1], 'src', m[2]) : request, ...rest);
    };
    require.extensions['.ts'] = (module, filename) => {
      const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
        filename, sourceMaps: false,
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      module._compile(out.code, filename);
    };
  `;
  return spawn(process.execPath, ['-e', `${hook}\n${script}`], { env, stdio: ['ignore', 'pipe', 'pipe'] });
}

/** Resolves with how the child ended, and what it wrote. */
export function ended(child: ChildProcess): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  let stdout = '';
  let stderr = '';
  child.stdout?.on('data', (d: Buffer) => (stdout += d.toString()));
  child.stderr?.on('data', (d: Buffer) => (stderr += d.toString()));
  return new Promise((resolve, reject) => {
    child.once('error', reject);
    child.once('close', (code, signal) => resolve({ code, signal, stdout, stderr }));
  });
}

/** Resolves once the child prints `line` (rejects if it exits first). */
export function printed(child: ChildProcess, line: string): Promise<void> {
  let out = '';
  let err = '';
  child.stderr?.on('data', (d: Buffer) => (err += d.toString()));
  return new Promise((resolve, reject) => {
    child.stdout?.on('data', (d: Buffer) => {
      out += d.toString();
      if (out.split('\n').includes(line)) resolve();
    });
    child.once('exit', (code, signal) => reject(new Error(`the child ended (${code ?? signal}) before printing ${line}: ${err}`)));
  });
}
