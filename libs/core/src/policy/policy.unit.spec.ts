import { ALLOW_ALL, READ_ONLY, parsePolicy } from './owner-policy';
import { commandCheckRefusal, operationRefusal, visibleOperations } from './policy-decisions';
import { parsePolicyConfig } from './policy-config';

const ops = [
  { name: 'palimpsest_get_target', readOnly: true },
  { name: 'palimpsest_change_apply', readOnly: false },
];

describe('owner policy', () => {
  it('fills seed 004 defaults and refuses unknown fields and bad types', () => {
    expect(parsePolicy({ mode: 'allow_list', allow: ['wc'] }, 'p')).toEqual({
      ok: true,
      value: { name: 'p', mode: 'allow_list', allow: ['wc'], deny: [], shell: false, approve: false, tools: null, require_checks: [] },
    });
    const bad = parsePolicy({ mode: 'everything', approve: 'yes', extra: 1 });
    expect(bad.ok).toBe(false);
    if (!bad.ok) expect(bad.problems).toEqual(['policy.extra is not a policy field', 'policy.mode must be one of allow_all, allow_list, read_only', 'policy.approve must be true or false']);
  });

  it('hides tools outside `tools`, and write tools under read_only', () => {
    expect(visibleOperations(ALLOW_ALL, ops)).toEqual(ops);
    expect(visibleOperations(READ_ONLY, ops).map((o) => o.name)).toEqual(['palimpsest_get_target']);
    const narrow = { ...ALLOW_ALL, tools: ['palimpsest_change_apply'] };
    expect(operationRefusal(narrow, ops[0])?.reason).toBe('tool_not_permitted');
    expect(operationRefusal(READ_ONLY, ops[1])?.reason).toBe('read_only');
  });

  it('runs command checks by mode: deny wins, allow_list needs an entry, shells need shell: true', () => {
    const wc = { name: 'wc', shell: false };
    expect(commandCheckRefusal(ALLOW_ALL, wc)).toBeNull();
    expect(commandCheckRefusal({ ...ALLOW_ALL, deny: ['wc'] }, wc)?.reason).toBe('check_denied');
    expect(commandCheckRefusal({ ...ALLOW_ALL, mode: 'allow_list' }, wc)?.reason).toBe('check_not_allowed');
    expect(commandCheckRefusal({ ...ALLOW_ALL, mode: 'allow_list', allow: ['wc'] }, wc)).toBeNull();
    expect(commandCheckRefusal(ALLOW_ALL, { name: 'sh', shell: true })?.reason).toBe('shell_not_allowed');
    expect(commandCheckRefusal(READ_ONLY, wc)?.reason).toBe('read_only');
  });
});

describe('policy document', () => {
  it('parses profiles and command checks with bounded limits', () => {
    const parsed = parsePolicyConfig({
      profiles: { reviewed: { mode: 'allow_list', allow: ['wc'], approve: true } },
      checks: { wc: { argv: ['wc', '-l', '{files}'], timeout_ms: 5000, extensions: ['.md'] } },
    });
    expect(parsed.ok).toBe(true);
    if (!parsed.ok) return;
    expect(Object.keys(parsed.value.profiles).sort()).toEqual(['files', 'full', 'read-only', 'reviewed']);
    expect(parsed.value.checks.wc).toEqual({
      name: 'wc', argv: ['wc', '-l', '{files}'], command: null, shell: false, timeout_ms: 5000, max_output_bytes: 65536, extensions: ['.md'], content_types: null,
    });
  });

  it('reports every problem: redefined built-ins, shell lines without shell, both forms, limits', () => {
    const parsed = parsePolicyConfig({
      profiles: { full: { mode: 'read_only' } },
      checks: { json: { argv: ['x'] }, a: { command: 'ls | wc' }, b: { argv: ['x'], command: 'y', shell: true }, c: { argv: ['x'], timeout_ms: 999999 } },
    });
    expect(parsed.ok).toBe(false);
    if (parsed.ok) return;
    expect(parsed.problems).toHaveLength(6);
  });
});
