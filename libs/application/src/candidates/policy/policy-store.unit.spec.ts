import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { ALLOW_ALL, READ_ONLY } from '@palimpsest/core/policy/owner-policy';
import { PolicyConfigError, UnknownProfileError, loadPolicyConfig, resolveProfilePolicy, resolveTokenPolicy } from './policy-store';

describe('policy store', () => {
  const dir = mkdtempSync(join(tmpdir(), 'palimpsest-policy-unit-'));
  const file = (name: string, text: string) => {
    writeFileSync(join(dir, name), text);
    return join(dir, name);
  };
  afterAll(() => rmSync(dir, { recursive: true, force: true }));

  it('knows the built-in profiles without a file, and refuses unknown names', () => {
    expect(resolveProfilePolicy('full', null)).toEqual(ALLOW_ALL);
    expect(resolveProfilePolicy('read-only', null)).toEqual(READ_ONLY);
    expect(() => resolveProfilePolicy('agent', null)).toThrow(UnknownProfileError);
  });

  it('reads profiles and checks from YAML or JSON', () => {
    const yaml = file('p.yaml', 'profiles:\n  agent: { mode: allow_list, allow: [wc], approve: true }\nchecks:\n  wc: { argv: [wc, -l, "{files}"] }\n');
    expect(resolveProfilePolicy('agent', yaml)).toMatchObject({ name: 'agent', mode: 'allow_list', allow: ['wc'], approve: true });
    expect(Object.keys(loadPolicyConfig(yaml).checks)).toEqual(['wc']);
    const json = file('p.json', JSON.stringify({ profiles: { ro: { mode: 'read_only' } } }));
    expect(resolveProfilePolicy('ro', json).mode).toBe('read_only');
  });

  it('refuses an invalid document with every problem listed', () => {
    const bad = file('bad.yaml', 'profiles:\n  x: { mode: sometimes }\nextra: 1\n');
    expect(() => loadPolicyConfig(bad)).toThrow(PolicyConfigError);
    try {
      loadPolicyConfig(bad);
    } catch (err) {
      expect((err as PolicyConfigError).problems).toHaveLength(2);
    }
  });

  it('validates a token policy for the HTTP gateway', () => {
    expect(resolveTokenPolicy(null)).toEqual({ ok: true, policy: { ...ALLOW_ALL, name: null } });
    expect(resolveTokenPolicy({ mode: 'allow_all', approve: true }, 'ci-token')).toMatchObject({ ok: true, policy: { name: 'ci-token', approve: true } });
    expect(resolveTokenPolicy({ mode: 'root' })).toMatchObject({ ok: false });
  });
});
