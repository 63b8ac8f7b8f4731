import type { Outcome } from '@palimpsest/protocol/outcome';
import { RELAYED_TOOLS } from '@palimpsest/protocol/catalog/operations/projects.operations';
import type { AppContext } from '../app-context';
import type { HandlerSession } from '../dispatch/operation-handler';
import { noActiveProject, unknownProject } from './project-refusals';
import type { RelayedTool, RelayProject } from './project-relay.port';

const RELAYED: ReadonlySet<string> = new Set(RELAYED_TOOLS);

export const isRelayedTool = (name: string): name is RelayedTool => RELAYED.has(name);

/** A project by its slug or its id, among those announced. */
export function findProject(known: RelayProject[], given: string): RelayProject | undefined {
  return known.find((p) => p.slug === given) ?? known.find((p) => p.id === given);
}

export type Route = { answer: Outcome } | { local: Record<string, unknown> };

/**
 * Where a file or command tool call runs: an executor's project (the `project` argument, else the client's
 * active project), answered here through the relay; or this process's own workspace (`local`: the tool's
 * arguments without `project` and `client_request_id`), which is the case whenever no project is named or
 * active and this process has a workspace root or no executor ever connected.
 */
export async function routeToProject(ctx: AppContext, tool: RelayedTool, args: Record<string, unknown>, session: HandlerSession): Promise<Route> {
  const { project: named, client_request_id: key, ...rest } = args as { project?: string; client_request_id?: string };
  const relay = ctx.relay;
  const known = relay?.port.projects() ?? [];
  const given = named ?? relay?.active.get(session.correlationId) ?? null;
  if (given === null) return !ctx.workspace && known.length > 0 ? { answer: noActiveProject(tool) } : { local: rest };
  const project = findProject(known, given);
  if (!relay || !project) return { answer: unknownProject(tool, given, known) };
  // Offline or not, the relay answers: a key it sent before has a recorded answer or an outcome in doubt,
  // and only a call never sent is refused LOCAL_EXECUTOR_OFFLINE (not applied).
  return { answer: await relay.port.call({
    projectId: project.id,
    tool,
    arguments: rest,
    key: key ?? null,
    policy: session.policy ?? null,
    correlationId: session.correlationId ?? null,
    client: session.client ?? null,
    ...(session.signal ? { signal: session.signal } : {}),
  }) };
}
