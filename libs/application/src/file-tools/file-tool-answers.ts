import type { InvalidArgument } from '@palimpsest/core/errors/invalid-argument';
import { workspaceNotConfigured } from '../shared/workspace-not-configured';

/** The file tools read under the workspace root: without one configured there is nothing to read. */
export const noWorkspace = (tool: string): InvalidArgument =>
  workspaceNotConfigured(`${tool} works on files under the workspace root`);
