import { spawn } from 'node:child_process';

/**
 * Runs TypeScript `code` in a fresh Node process (a real second process, e.g. for lock tests).
 * `.ts` files are compiled on require with @swc/core, the same compiler Jest uses; require
 * modules by absolute path. Resolves with the exit code and output.
 */
export interface SpawnTsOptions {
  timeoutMs?: number;
  cwd?: string;
  env?: NodeJS.ProcessEnv;
  /** Called with each stdout chunk as it arrives (e.g. to wait for a "ready" line). */
  onStdout?: (chunk: string) => void;
}

export function spawnTs(code: string, opts: SpawnTsOptions = {}): Promise<{ code: number | null; signal: NodeJS.Signals | null; stdout: string; stderr: string }> {
  const hook = `
    const fs = require('node:fs');
    const swc = require('@swc/core');
    require.extensions['.ts'] = (module, filename) => {
      const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
        filename, sourceMaps: false,
        jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
        module: { type: 'commonjs' },
      });
      module._compile(out.code, filename);
    };
  `;
  const body = swcCompile(code);
  return new Promise((resolve, reject) => {
    const child = spawn(process.execPath, ['-e', `${hook}\n${body}`], {
      cwd: opts.cwd ?? process.cwd(),
      env: { ...process.env, ...opts.env },
      stdio: ['ignore', 'pipe', 'pipe'],
    });
    let stdout = '';
    let stderr = '';
    child.stdout.on('data', (chunk: Buffer) => {
      stdout += chunk.toString();
      opts.onStdout?.(chunk.toString());
    });
    child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
    const timer = setTimeout(() => child.kill('SIGKILL'), opts.timeoutMs ?? 30_000);
    child.on('error', reject);
    child.on('close', (exitCode, signal) => {
      clearTimeout(timer);
      resolve({ code: exitCode, signal, stdout, stderr });
    });
  });
}

function swcCompile(code: string): string {
  // eslint-disable-next-line @typescript-eslint/no-require-imports
  const swc = require('@swc/core') as typeof import('@swc/core');
  return swc.transformSync(code, {
    filename: 'inline.ts',
    sourceMaps: false,
    jsc: { parser: { syntax: 'typescript' }, target: 'es2022' },
    module: { type: 'commonjs' },
  }).code;
}
