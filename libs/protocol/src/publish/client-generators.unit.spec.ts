import { CATALOG } from '../catalog/catalog';
import { PROTOCOL_METHODS, PROTOCOL_VERSION } from '../protocol-methods/protocol-methods';
import { wireMethods } from '../protocol-methods/wire-methods';
import { WORKSPACE_METHODS } from '../protocol-methods/workspace-methods';
import { clientFiles } from './client-sources';
import { pythonClientSource } from './python-client';
import { rustClientSource } from './rust-client';
import { typescriptProtocolSource } from './typescript-protocol-client';

const every = () => [...PROTOCOL_METHODS.map((m) => m.name), ...CATALOG.map((op) => op.name), ...Object.keys(WORKSPACE_METHODS)].sort((a, b) => (a < b ? -1 : a > b ? 1 : 0));

describe('client generators', () => {
  it('are deterministic: the same catalog gives the same bytes', () => {
    for (const language of ['typescript', 'python', 'rust'] as const) expect([...clientFiles(language)]).toEqual([...clientFiles(language)]);
  });

  it('list every protocol method, catalog operation and workspace method, sorted, in each language, with the protocol version', () => {
    const python = [...pythonClientSource().matchAll(/^ {4}"([^"]+)": Method\(/gm)].map((m) => m[1]);
    const rust = [...rustClientSource().matchAll(/^ {4}Method \{ name: "([^"]+)"/gm)].map((m) => m[1]);
    const ts = [...typescriptProtocolSource().matchAll(/^ {2}"([^"]+)": \[/gm)].map((m) => m[1]);
    expect(wireMethods().map((m) => m.name)).toEqual(every());
    expect(python).toEqual(every());
    expect(rust).toEqual(every());
    expect(ts).toEqual(every());
    for (const source of [pythonClientSource(), rustClientSource(), typescriptProtocolSource()]) expect(source).toContain(`"${PROTOCOL_VERSION}"`);
  });

  it('carry each method\'s argument names and its statuses, success apart', () => {
    const submit = wireMethods().find((m) => m.name === 'palimpsest_submit_edits')!;
    expect(submit).toMatchObject({ readOnly: false, success: ['accepted'] });
    expect(submit.statuses).toEqual(expect.arrayContaining(['rejected', 'invalid_argument', 'not_found']));
    expect(pythonClientSource()).toContain(`"palimpsest_submit_edits": Method("operation", False, ("target_file_id", "intent", "edits"),`);
    expect(rustClientSource()).toContain('Method { name: "protocol/client", protocol: true, read_only: true,\n        required: &["language"], allowed: &["language"],');
  });

  it('perform no I/O: the generated helpers import no file, process or network module', () => {
    expect(pythonClientSource()).not.toMatch(/^(import|from) (os|sys|subprocess|socket|io)\b/m);
    for (const text of clientFiles('rust').values()) expect(text).not.toMatch(/std::(fs|process|net|io)\b/);
    expect(typescriptProtocolSource()).not.toMatch(/from '(node:)?(fs|child_process|net)'/);
  });
});
