import { execFile } from 'node:child_process';
import { CLI_BIN, isolatedStore, runCli } from '../support/cli-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

describe(`palimpsest CLI as a real process on ${backend}`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  beforeAll(async () => {
    store = await isolatedStore();
  });
  afterAll(() => store.dispose());

  const call = async (operation: string, args: unknown) => {
    const r = await runCli(['call', operation], { input: JSON.stringify(args), env: store.env });
    return { ...r, json: JSON.parse(r.stdout) };
  };

  it('migrates, initializes, submits, replays and rebuilds through one-shot calls', async () => {
    const migrated = await runCli(['migrate'], { env: store.env });
    expect(migrated.code).toBe(0);
    expect(migrated.stdout).toMatch(/applied \d+ migration|up to date/);

    const created = await call('palimpsest_initialize_target', { filename: 'doc.md', content: 'alpha beta alpha\r\n' });
    expect(created.code).toBe(0);
    expect(created.json).toMatchObject({ status: 'ok', version: 0 });
    const id = created.json.target_file_id;

    const ambiguous = await call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma' }],
    });
    expect(ambiguous.code).toBe(0);
    expect(ambiguous.json).toMatchObject({ status: 'rejected', failure_reason: 'match_ambiguous' });

    const accepted = await call('palimpsest_submit_edits', {
      target_file_id: id, intent: 'x', expected_target_version: 0, edits: [{ match: 'alpha', replace: 'gamma', occurrence_index: 2 }],
    });
    expect(accepted.json).toMatchObject({ status: 'accepted', version: 1 });
    expect(accepted.json.after_hash.slice(0, 8)).toBe('adf7157c');

    const replay = await runCli(['replay', id], { env: store.env });
    expect(replay.code).toBe(0);
    expect(JSON.parse(replay.stdout)).toMatchObject({ status: 'success', materialized_state_matches: true });

    const rebuild = await runCli(['projections', 'rebuild', '--no-progress'], { env: store.env });
    expect(rebuild.code).toBe(0);
    expect(JSON.parse(rebuild.stdout)).toMatchObject({ equal: true, compared: 1 });
  });

  it('exits 2 with a documented error for bad JSON, unknown operations and invalid arguments', async () => {
    const badJson = await runCli(['call', 'palimpsest_get_target'], { input: '{nope', env: store.env });
    expect(badJson.code).toBe(2);
    expect(JSON.parse(badJson.stdout)).toMatchObject({ status: 'invalid_argument', code: 'invalid_json' });

    const unknown = await call('palimpsest_frobnicate', {});
    expect(unknown.code).toBe(2);
    expect(unknown.json).toMatchObject({ code: 'unknown_operation' });

    const invalid = await call('palimpsest_get_target', { target_file_id: 'not-a-uuid' });
    expect(invalid.code).toBe(2);
    expect(invalid.json).toMatchObject({ code: 'invalid_target_file_id' });
  });

  it('exits 2, saying what to do, for every request that names nothing or gives a bad value', async () => {
    const unknownTarget = await runCli(['replay', '5f0c8a2e-8d1b-4c3e-9a7f-2b6d4e8f1a30'], { env: store.env });
    expect({ code: unknownTarget.code, status: JSON.parse(unknownTarget.stdout).status }).toEqual({ code: 2, status: 'not_found' });
    const malformed = await runCli(['replay', 'not-a-uuid'], { env: store.env });
    expect({ code: malformed.code, status: JSON.parse(malformed.stdout).status }).toEqual({ code: 2, status: 'invalid_argument' });
    const revoke = await runCli(['tokens', 'revoke', 'nope'], { env: store.env });
    expect(revoke.code).toBe(2);
    expect(revoke.stderr).toContain('tokens list');
    const scopes = await runCli(['tokens', 'create', '--scopes', 'bogus'], { env: store.env });
    expect(scopes.code).toBe(2);
    expect(scopes.stderr).toMatch(/--scopes: .*unknown: bogus/);
    const policy = await runCli(['tokens', 'create', '--scopes', 'read', '--policy', '{not json'], { env: store.env });
    expect(policy.code).toBe(2);
    expect(policy.stderr).toContain('--policy:');
  });

  it('tokens list prints a table on a terminal and JSON otherwise', async () => {
    expect((await runCli(['tokens', 'create', '--scopes', 'read', '--name', 'tabled'], { env: store.env })).code).toBe(0);
    const piped = await runCli(['tokens', 'list'], { env: store.env });
    expect(JSON.parse(piped.stdout).map((t: { name: string }) => t.name)).toContain('tabled');
    // `script` gives the command a pseudo-terminal, as a person's shell would.
    const tty = await new Promise<string>((resolve, reject) => {
      execFile('script', ['-qec', `${process.execPath} ${CLI_BIN} tokens list`, '/dev/null'], { env: { ...process.env, ...store.env } }, (err, stdout) => (err ? reject(err) : resolve(stdout)));
    });
    expect(tty).toMatch(/TOKEN ID\s+NAME\s+SCOPES/);
    expect(tty).toMatch(/tabled\s+read/);
    expect(tty).not.toContain('pal_');
  });
});
