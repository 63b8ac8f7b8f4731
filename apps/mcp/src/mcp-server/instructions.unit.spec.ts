import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { BUILTIN_PROFILES } from '@palimpsest/core/policy/owner-policy';
import { instructionsFor } from './instructions';
import { listTools } from './tool-list';

const ALL_TOOLS = CATALOG.map((op) => op.name);
/** Every tool name the instructions mention. */
const named = (text: string) => ALL_TOOLS.filter((name) => new RegExp(`\\b${name}\\b`).test(text));

describe('MCP instructions, written per profile', () => {
  it.each(Object.entries(BUILTIN_PROFILES))('the %s profile names only tools it lists', (name, policy) => {
    const tools = listTools(policy.mode === 'read_only' ? 'read-only' : 'full', 'detailed', policy).map((t) => t.name);
    const text = instructionsFor(tools, policy);
    expect(named(text).length).toBeGreaterThan(0);
    for (const tool of named(text)) expect(tools).toContain(tool);
  });

  it('differs between profiles: files speaks of edit_file, read-only says it only reads, an approval policy speaks of approvals', () => {
    const files = instructionsFor(listTools('full', 'detailed', BUILTIN_PROFILES.files).map((t) => t.name), BUILTIN_PROFILES.files);
    expect(files).toContain('`edit_file`');
    expect(files).not.toContain('palimpsest_submit_edits');
    const readOnly = instructionsFor(listTools('read-only', 'detailed', BUILTIN_PROFILES['read-only']).map((t) => t.name), BUILTIN_PROFILES['read-only']);
    expect(readOnly).toContain('only reads');
    expect(readOnly).not.toContain('edit_file');
    const reviewed = { ...BUILTIN_PROFILES.files, name: 'reviewed', approve: true };
    expect(instructionsFor(listTools('full', 'detailed', reviewed).map((t) => t.name), reviewed)).toContain('APPROVAL_DECLINED');
    expect(new Set([files, readOnly, instructionsFor(ALL_TOOLS)]).size).toBe(3);
  });
});
