import { spawn } from 'node:child_process';
import { hostname } from 'node:os';
import { join, resolve } from 'node:path';

const REPO_ROOT = resolve(__dirname, '..', '..', '..', '..');
const SCRIPT = join(__dirname, 'recording-projector.script.ts');
const ALIASES: Record<string, string> = {
  core: 'libs/core/src', store: 'libs/store/src', projections: 'libs/projections/src', protocol: 'libs/protocol/src',
  application: 'libs/application/src', workspace: 'libs/workspace/src', structure: 'libs/structure/src', testing: 'libs/testing/src', composition: 'libs/composition/src',
  mcp: 'apps/mcp/src', api: 'apps/api/src', projector: 'apps/projector/src',
};

/**
 * Runs the sources (no build) in a fresh Node: .ts compiled on require by @swc/core with Nest's decorator
 * metadata, @palimpsest/* resolved as tsconfig.json maps them.
 */
const HOOK = `
  const fs = require('node:fs'), path = require('node:path'), Module = require('node:module'), swc = require('@swc/core');
  const aliases = ${JSON.stringify(ALIASES)}, root = ${JSON.stringify(REPO_ROOT)};
  const resolveFilename = Module._resolveFilename;
  Module._resolveFilename = function (request, ...rest) {
    const m = /^@palimpsest\\/([a-z]+)\\/(.*)$/.exec(request);
    return resolveFilename.call(this, m && aliases[m[1]] ? path.join(root, aliases[m[1]], m[2]) : request, ...rest);
  };
  require.extensions['.ts'] = (module, filename) => {
    const out = swc.transformSync(fs.readFileSync(filename, 'utf8'), {
      filename, sourceMaps: false, module: { type: 'commonjs' },
      jsc: { parser: { syntax: 'typescript', decorators: true }, transform: { legacyDecorator: true, decoratorMetadata: true }, target: 'es2022' },
    });
    module._compile(out.code, filename);
  };
  require(${JSON.stringify(SCRIPT)});
`;

export interface ProjectorProcess {
  /** host:pid, as the process records itself as leader. */
  readonly identity: string;
  readonly ready: Promise<void>;
  readonly exited: Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>;
  /** What it printed so far. */
  stdout(): string;
  stderr(): string;
  kill(signal: NodeJS.Signals): void;
}

/** A real projector process running the recording projection `name` into `table`. */
export function spawnRecordingProjector(
  storeEnv: NodeJS.ProcessEnv,
  test: { name: string; table: string; batch?: number; crashAt?: number; exitWhenCaughtUp?: boolean; shards?: number; leaseMs?: number; stopAt?: number },
): ProjectorProcess {
  const child = spawn(process.execPath, ['-e', HOOK], {
    cwd: REPO_ROOT,
    env: {
      ...process.env,
      ...storeEnv,
      PROJECTOR_TEST_NAME: test.name,
      PROJECTOR_TEST_TABLE: test.table,
      PROJECTOR_TEST_BATCH: String(test.batch ?? 50),
      PALIMPSEST_CRASH_POINT: test.crashAt ? `projector.after_apply@${test.crashAt}` : '',
      EXIT_WHEN_CAUGHT_UP: test.exitWhenCaughtUp ? '1' : '',
      PROJECTOR_TEST_SHARDS: String(test.shards ?? ''),
      PROJECTOR_TEST_LEASE_MS: String(test.leaseMs ?? ''),
      PROJECTOR_TEST_STOP_AT: String(test.stopAt ?? ''),
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  let stderr = '';
  child.stderr.on('data', (chunk: Buffer) => (stderr += chunk.toString()));
  const exited = new Promise<{ code: number | null; signal: NodeJS.Signals | null; stderr: string }>((done) =>
    child.on('close', (code, signal) => done({ code, signal, stderr })),
  );
  let out = '';
  const ready = new Promise<void>((done, fail) => {
    child.stdout.on('data', (chunk: Buffer) => {
      out += chunk.toString();
      if (out.includes('ready\n')) done();
    });
    void exited.then(({ code, signal }) => fail(new Error(`projector exited (${code ?? signal}) before it was ready:\n${stderr}`)));
  });
  ready.catch(() => undefined);
  return { identity: `${hostname()}:${child.pid}`, ready, exited, stdout: () => out, stderr: () => stderr, kill: (signal) => void child.kill(signal) };
}
