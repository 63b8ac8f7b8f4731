import { isolatedStore, runCli } from '../support/cli-process';
import { ISSUE_EXAMPLES, assertNoInternalErrors, hostileFixture, type TransportCall } from '../support/hostile-text-driver';
import { withServe } from '../support/workspace-process';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** One process per call (about a second each), so the sample is the issue's cases and a few more. */
describe(`palimpsest call: hostile text in arguments never exits 1 (${backend})`, () => {
  let store: Awaited<ReturnType<typeof isolatedStore>>;
  const call: TransportCall = async (name, args) => {
    const r = await runCli(['call', name], { input: JSON.stringify(args), env: store.env });
    let answer: Record<string, any> = {};
    try {
      answer = JSON.parse(r.stdout);
    } catch {
      return { answer, internal: `exit ${r.code}, stdout is not JSON: ${r.stdout.slice(0, 200)} ${r.stderr.slice(0, 400)}` };
    }
    // Exit 0 for an answer, 2 for a refused call; 1 means the command itself failed.
    const internal = r.code === 0 || r.code === 2 ? null : `exit ${r.code}: ${r.stderr.slice(0, 400)}`;
    return { answer, internal };
  };

  beforeAll(async () => {
    store = await isolatedStore();
  });
  afterAll(() => store?.dispose());

  it('answers a NUL request key with the recorded rejection (exit 0), and hostile text anywhere never exits 1', async () => {
    // The fixture (two targets, a candidate) is set up in one `palimpsest serve` process, not one process a call.
    const f = await withServe(store.env, (serve) => hostileFixture(async (name, args) => ({ answer: await serve(name, args), internal: null })));
    const key = await call('palimpsest_submit_edits', {
      target_file_id: f.target, intent: 'rename', expected_target_version: f.version, client_request_id: 'req\u0000',
      edits: [{ match: 'beta', replace: 'gamma' }],
    });
    expect(key.internal).toBeNull();
    expect(key.answer).toMatchObject({ status: 'rejected', diagnostic: { code: 'invalid_client_request_id' }, retryable: 'none' });
    // The NUL and surrogate reproductions (the noncharacter one is accepted and costs a restore), then two random.
    await assertNoInternalErrors(call, f, 9, ISSUE_EXAMPLES.slice(0, 7));
  }, 120_000);
});
