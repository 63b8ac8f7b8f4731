import { spawnSync, execFile } from 'node:child_process';
import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { promisify } from 'node:util';
import { CLI_BIN, REPO_ROOT, isolatedStore } from '../support/cli-process';

const run = promisify(execFile);
const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';
const DRIVERS = join(REPO_ROOT, 'test', 'e2e', 'protocol-clients');
const RUST_CLIENT = join(REPO_ROOT, 'clients', 'rust', 'palimpsest_client');

/** What both drivers print: one line per answer (method, kind, status or code), then the client's own refusals. */
const TRANSCRIPT = [
  'protocol/capabilities success ok',
  'protocol/schemas success ok',
  'protocol/instructions success ok',
  'protocol/client success ok',
  'query/catalog success ok',
  'palimpsest_initialize_target success ok',
  'palimpsest_submit_edits refusal rejected/match_ambiguous',
  'palimpsest_submit_edits success accepted',
  'palimpsest_read_target success ok',
  'palimpsest_get_target refusal not_found/target_not_found',
  'protocol/client refusal invalid_argument/invalid_argument_value',
  '- error -32601',
  '- error -32700',
  'client refused unknown_method',
  'client refused unknown_argument',
  'client refused invalid_id',
  'client refused protocol_mismatch',
  'done',
];

/** A tool the suite needs: its absence fails the suite with what to install, never skips it. */
function requireTool(command: string, install: string): void {
  const probe = spawnSync(command, ['--version'], { encoding: 'utf8' });
  if (probe.error || probe.status !== 0) throw new Error(`${command} is not on PATH: ${install}`);
}

/**
 * The Rust driver, built once per content: a crate under the temp directory keyed by the SHA-256 of its
 * sources, so a second run (or an unchanged catalog) reuses the binary. std only, so --offline builds it.
 */
async function rustDriver(): Promise<string> {
  const main = readFileSync(join(DRIVERS, 'rust', 'main.rs'), 'utf8');
  const client = ['mod.rs', 'json.rs'].map((name) => [name, readFileSync(join(RUST_CLIENT, name), 'utf8')] as const);
  const manifest = '[package]\nname = "rust_session"\nversion = "0.0.0"\nedition = "2021"\n\n[dependencies]\n';
  const hash = createHash('sha256').update(main).update(manifest);
  for (const [name, text] of client) hash.update(name).update(text);
  const key = hash.digest('hex').slice(0, 16);
  const dir = join(tmpdir(), `palimpsest-rust-session-${key}`);
  const binary = join(dir, 'target', 'debug', process.platform === 'win32' ? 'rust_session.exe' : 'rust_session');
  if (existsSync(binary)) return binary;
  mkdirSync(join(dir, 'src', 'palimpsest_client'), { recursive: true });
  writeFileSync(join(dir, 'Cargo.toml'), manifest);
  writeFileSync(join(dir, 'src', 'main.rs'), main);
  for (const [name, text] of client) writeFileSync(join(dir, 'src', 'palimpsest_client', name), text);
  await run('cargo', ['build', '--offline', '--quiet'], { cwd: dir, env: { ...process.env, CARGO_TARGET_DIR: join(dir, 'target') } });
  return binary;
}

describe(`generated Python and Rust clients drive palimpsest serve on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;

  beforeAll(async () => {
    store = await isolatedStore();
  });
  afterAll(() => store.dispose());

  const session = async (command: string, args: string[]) => {
    const { stdout } = await run(command, args, { cwd: REPO_ROOT, env: { ...process.env, ...store.env }, timeout: 120_000 });
    return stdout.trimEnd().split('\n');
  };

  it('Python (python3, standard library only): every answer kind, decoded by the generated helpers', async () => {
    requireTool('python3', 'install Python 3 to run the generated Python client');
    const lines = await session('python3', ['-B', join(DRIVERS, 'python_session.py'), process.execPath, CLI_BIN, join(REPO_ROOT, 'clients', 'python')]);
    expect(lines).toEqual(TRANSCRIPT);
  }, 180_000);

  it('Rust (cargo, std only, built offline): every answer kind, decoded by the generated helpers', async () => {
    requireTool('cargo', 'install the Rust toolchain (cargo) to build the generated Rust client');
    const binary = await rustDriver();
    const lines = await session(binary, [process.execPath, CLI_BIN, REPO_ROOT]);
    expect(lines).toEqual(TRANSCRIPT);
  }, 300_000);
});
