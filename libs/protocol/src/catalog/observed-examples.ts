import type { ObservedSetup, OperationExample } from './operation-spec';
import { EXAMPLE_TARGET_ID } from './fragments';

/**
 * The observed submission's examples run on a document with structure (EXAMPLE_TEXT has none), after an
 * observation: their ids are illustrative, and a host binds them to the receipts it got (bindObserved).
 */
export const EXAMPLE_DOCUMENT = '# Guide\n\n## Install\n\nRun the installer.\n\n## Usage\n\nCall it.\n';
const EXAMPLE_DOCUMENT_HASH = '3c31bfed1c6325ea242675a31efb36822c3c88a66a435d550a993071d203ac46';
export const EXAMPLE_OBSERVATION_ID = '8b2e4f6a-1c3d-4e5f-a7b9-0d2c4e6f8a1b';
export const EXAMPLE_BUNDLE_ID = '0c6e2a4f-9b1d-4f3e-8a5c-7d9e1b3f5a2c';
export const EXAMPLE_SECOND_OBSERVATION_ID = '6d4f8b2a-3e5c-4a7b-9c1d-2e4f6a8b0c3d';

const guards = { expected_target_version: 0, expected_current_hash: EXAMPLE_DOCUMENT_HASH };

export const OBSERVED_EXAMPLES: OperationExample[] = [
  {
    title: 'Edit inside an observed section',
    setup: 'observed_document',
    params: {
      target_file_id: EXAMPLE_TARGET_ID,
      observation_id: EXAMPLE_OBSERVATION_ID,
      intent: 'Say how often',
      ...guards,
      operations: [{ op: 'match', match: 'Run the installer.', replace: 'Run the installer once.' }],
    },
  },
  {
    title: 'One batch over two sections of a bundle',
    setup: 'observed_bundle',
    params: {
      target_file_id: EXAMPLE_TARGET_ID,
      observation_bundle_id: EXAMPLE_BUNDLE_ID,
      intent: 'Shorten',
      ...guards,
      client_request_id: 'batch-1',
      groups: [
        { observation_id: EXAMPLE_OBSERVATION_ID, operations: [{ op: 'match', match: 'installer', replace: 'setup' }] },
        { observation_id: EXAMPLE_SECOND_OBSERVATION_ID, operations: [{ op: 'match', match: 'Call it.', replace: 'Call.' }] },
      ],
    },
  },
];

type Call = (operation: string, args: Record<string, unknown>) => Promise<Record<string, unknown>>;

/**
 * Observes what an observed example needs on `targetId` (a target holding EXAMPLE_DOCUMENT) through `call`,
 * whatever the transport; returns real id → the example id it stands for.
 */
export async function bindObserved(call: Call, setup: ObservedSetup, targetId: string): Promise<Record<string, string>> {
  const install = { symbol_name: 'Guide.Install', kind: 'section' };
  if (setup === 'document') return {};
  if (setup === 'observed_document') {
    const observed = await call('palimpsest_observe_scope', { target_file_id: targetId, ...install });
    return { [String(observed.observation_id)]: EXAMPLE_OBSERVATION_ID };
  }
  const bundle = await call('palimpsest_observe_scope', { target_file_id: targetId, selections: [install, { symbol_name: 'Guide.Usage', kind: 'section' }] });
  const scopes = bundle.scopes as { observation_id: string }[] | undefined;
  if (!scopes) throw new Error(`the observed_bundle setup failed: ${JSON.stringify(bundle)}`);
  return { [String(bundle.bundle_id)]: EXAMPLE_BUNDLE_ID, [scopes[0]!.observation_id]: EXAMPLE_OBSERVATION_ID, [scopes[1]!.observation_id]: EXAMPLE_SECOND_OBSERVATION_ID };
}
