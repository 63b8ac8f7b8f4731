import { narrowPolicy } from './narrow-policy';

const hosted = { mode: 'allow_list' as const, allow: ['npm test', 'git status'], deny: ['rm'], shell: true, approve: false, tools: null };

describe('narrowPolicy: the local policy narrows the hosted one, never widens it', () => {
  it('keeps the hosted policy when the machine sets none', () => {
    expect(narrowPolicy(hosted, null, 'site')).toEqual({ name: 'site', ...hosted, require_checks: [] });
  });

  it('takes the stricter mode, the intersection of two allow lists, every deny, shell only if both allow', () => {
    const p = narrowPolicy(hosted, { mode: 'allow_list', allow: ['npm test', 'make'], deny: ['curl'], shell: false }, 'site');
    expect(p).toMatchObject({ mode: 'allow_list', allow: ['npm test'], deny: ['rm', 'curl'], shell: false });
    expect(narrowPolicy(hosted, { mode: 'read_only' }, 'site').mode).toBe('read_only');
  });

  it('cannot widen: a looser local mode, shell or approve leaves the hosted values', () => {
    const strict = { ...hosted, shell: false, approve: true };
    expect(narrowPolicy(strict, { mode: 'allow_all', shell: true, approve: false }, 'site')).toMatchObject({ mode: 'allow_list', shell: false, approve: true, allow: ['npm test', 'git status'] });
  });

  it('offers only the tools both offer; a local allow list applies under a hosted allow_all', () => {
    expect(narrowPolicy({ ...hosted, tools: ['read_file', 'grep'] }, { tools: ['grep', 'edit_file'] }, 's').tools).toEqual(['grep']);
    expect(narrowPolicy(null, { tools: ['read_file'] }, 's').tools).toEqual(['read_file']);
    expect(narrowPolicy(null, { mode: 'allow_list', allow: ['make'] }, 's')).toMatchObject({ mode: 'allow_list', allow: ['make'] });
  });
});
