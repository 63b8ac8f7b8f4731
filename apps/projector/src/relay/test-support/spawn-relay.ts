import { spawn, type ChildProcess } from 'node:child_process';
import { join, resolve } from 'node:path';

const ROOT = resolve(__dirname, '../../../../..');
const RUN_RELAY = join(__dirname, '..', 'run-relay.ts');

/**
 * A real process (the relay, the docs' example consumer) from the TypeScript sources: `.ts` compiled on require by @swc/core (as Jest does)
 * and the @palimpsest/* aliases resolved like Jest's moduleNameMapper.
 */
const boot = (file: string, exported: string): string => `
const fs = require('node:fs');
const path = require('node:path');
const Module = require('node:module');
const swc = require('@swc/core');
const ROOT = ${JSON.stringify(ROOT)};
const LIBS = { core: 'libs/core/src', store: 'libs/store/src', projections: 'libs/projections/src', protocol: 'libs/protocol/src',
  application: 'libs/application/src', workspace: 'libs/workspace/src', structure: 'libs/structure/src', testing: 'libs/testing/src', composition: 'libs/composition/src', mcp: 'apps/mcp/src', api: 'apps/api/src', projector: 'apps/projector/src' };
const resolveFilename = Module._resolveFilename;
Module._resolveFilename = function (request, ...rest) {
  const m = /^@palimpsest\\/([a-z]+)\\/(.*)$/.exec(request);
  if (m && LIBS[m[1]]) request = path.join(ROOT, LIBS[m[1]], m[2]);
  return resolveFilename.call(this, request, ...rest);
};
require.extensions['.ts'] = (module, filename) => {
  const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
    filename, sourceMaps: false,
    jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
    module: { type: 'commonjs' },
  });
  module._compile(out.code, filename);
};
require(${JSON.stringify(file)})[${JSON.stringify(exported)}]().catch((error) => {
  process.stdout.write(JSON.stringify({ level: 'error', msg: 'failed to start', err: String(error) }) + '\\n');
  process.exit(1);
});
`;

export interface RelayProcess {
  child: ChildProcess;
  /** JSON lines logged so far. */
  readonly lines: Record<string, unknown>[];
  /** Resolves when a logged line satisfies `match` (rejects when the process ends first). */
  waitFor(match: (line: Record<string, unknown>) => boolean, timeoutMs?: number): Promise<Record<string, unknown>>;
  ended: Promise<{ code: number | null; signal: NodeJS.Signals | null }>;
  stderr(): string;
}

export function spawnRelay(env: NodeJS.ProcessEnv): RelayProcess {
  return spawnModule(RUN_RELAY, 'runRelay', env);
}

/** Runs `exported()` of a TypeScript module in a real process that logs JSON lines on stdout. */
export function spawnModule(file: string, exported: string, env: NodeJS.ProcessEnv): RelayProcess {
  const child = spawn(process.execPath, ['-e', boot(file, exported)], { cwd: ROOT, env, stdio: ['ignore', 'pipe', 'pipe'] });
  const lines: Record<string, unknown>[] = [];
  const waiters = new Set<() => void>();
  let buffered = '';
  let stderr = '';
  child.stdout!.on('data', (chunk: Buffer) => {
    buffered += chunk.toString();
    const parts = buffered.split('\n');
    buffered = parts.pop()!;
    for (const part of parts) if (part.trim()) lines.push(parseLine(part));
    for (const check of waiters) check();
  });
  child.stderr!.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const ended = new Promise<{ code: number | null; signal: NodeJS.Signals | null }>((resolveEnd) => {
    child.on('close', (code, signal) => {
      resolveEnd({ code, signal });
      for (const check of waiters) check();
    });
  });
  let closed = false;
  void ended.then(() => (closed = true));
  return {
    child,
    lines,
    ended,
    stderr: () => stderr,
    waitFor(match, timeoutMs = 15_000) {
      return new Promise((resolveWait, reject) => {
        const timer = setTimeout(() => finish(new Error(`no matching relay line within ${timeoutMs} ms; stderr: ${stderr}`)), timeoutMs);
        const check = () => {
          const found = lines.find(match);
          if (found) finish(undefined, found);
          else if (closed || child.exitCode !== null || child.signalCode !== null) finish(new Error(`relay ended first; stderr: ${stderr}`));
        };
        function finish(error?: Error, line?: Record<string, unknown>): void {
          clearTimeout(timer);
          waiters.delete(check);
          if (error) reject(error);
          else resolveWait(line!);
        }
        waiters.add(check);
        check();
      });
    },
  };
}

function parseLine(text: string): Record<string, unknown> {
  try {
    return JSON.parse(text) as Record<string, unknown>;
  } catch {
    return { raw: text };
  }
}
