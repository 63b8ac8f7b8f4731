import { checkLocalCommandPolicy } from './local-command-policy';

describe('checkLocalCommandPolicy: the protocol\'s localCommandPolicy, every field optional', () => {
  it('admits an empty policy and a full one', () => {
    expect(checkLocalCommandPolicy({})).toEqual({ ok: true });
    expect(checkLocalCommandPolicy({ mode: 'allow_list', allow: ['npm test'], deny: ['rm'], shell: false, approve: true, tools: ['read_file', 'run_command'] })).toEqual({ ok: true });
  });

  it('refuses what the schema does not allow, naming where', () => {
    expect(checkLocalCommandPolicy({ mode: 'anything' })).toEqual({ ok: false, problem: expect.stringMatching(/^\/mode: /) });
    expect(checkLocalCommandPolicy({ tools: ['palimpsest_capabilities'] })).toEqual({ ok: false, problem: expect.stringMatching(/^\/tools\/0: /) });
    expect(checkLocalCommandPolicy({ widen: true })).toEqual({ ok: false, problem: expect.stringMatching(/^\(policy\)\/widen: /) });
    expect(checkLocalCommandPolicy([])).toMatchObject({ ok: false });
  });
});
