import { invalidArgument, type InvalidArgument } from '@palimpsest/core/errors/invalid-argument';

/** The file tools read under the workspace root: without one configured there is nothing to read. */
export const noWorkspace = (tool: string): InvalidArgument =>
  invalidArgument('workspace_not_configured', `${tool} works on files under the workspace root: configure PALIMPSEST_WORKSPACE_ROOT.`);
