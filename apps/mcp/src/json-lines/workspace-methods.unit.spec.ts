import { ALLOW_ALL, READ_ONLY } from '@palimpsest/core/policy/owner-policy';
import { catalogAvailability } from './catalog-methods';
import { operationOfMethod, WORKSPACE_METHODS } from '@palimpsest/protocol/protocol-methods/workspace-methods';

describe('the workspace methods of JSON lines', () => {
  it('name the snapshot operations, and leave every other method as it is', () => {
    expect(operationOfMethod('workspace/open')).toBe('palimpsest_open_snapshot');
    expect(operationOfMethod('workspace/status')).toBe('palimpsest_snapshot_status');
    expect(operationOfMethod('palimpsest_get_target')).toBe('palimpsest_get_target');
    expect(operationOfMethod('workspace/frobnicate')).toBe('workspace/frobnicate');
    expect(operationOfMethod('toString')).toBe('toString');
  });

  it('are served under the full and the read-only profile; an unknown workspace/ method is unknown', () => {
    for (const policy of [ALLOW_ALL, READ_ONLY]) {
      const available = catalogAvailability(policy);
      for (const method of Object.keys(WORKSPACE_METHODS)) expect(available(method)).toBe('available');
      expect(available('workspace/frobnicate')).toBe('unknown');
    }
  });
});
