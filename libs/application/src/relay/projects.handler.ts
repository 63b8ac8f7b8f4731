import type { Admitted, Result } from '@palimpsest/protocol/catalog/operation-types';
import type { AppContext } from '../app-context';
import type { HandlerSession } from '../dispatch/operation-handler';
import { noActiveProject, unknownProject } from './project-refusals';
import type { RelayProject } from './project-relay.port';
import { findProject } from './route-to-project';

const shown = (p: RelayProject, active: string | null) => ({ id: p.id, slug: p.slug, online: p.online, active: p.id === active });

/** list_projects: every project an executor announced since the gateway started, and this client's choice. */
export async function listProjects(ctx: AppContext, _args: Admitted<'list_projects'>, session: HandlerSession): Promise<Result<'list_projects'>> {
  const active = ctx.relay?.active.get(session.correlationId) ?? null;
  const projects = (ctx.relay?.port.projects() ?? []).map((p) => shown(p, active));
  return { status: 'ok', projects, active } as Result<'list_projects'>;
}

/** get_active_project: the client's active project, or NO_ACTIVE_PROJECT. */
export async function getActiveProject(ctx: AppContext, _args: Admitted<'get_active_project'>, session: HandlerSession): Promise<Result<'get_active_project'>> {
  const active = ctx.relay?.active.get(session.correlationId) ?? null;
  const project = active === null ? undefined : ctx.relay!.port.projects().find((p) => p.id === active);
  if (!project) return noActiveProject('get_active_project') as Result<'get_active_project'>;
  return { status: 'ok', project: shown(project, active) } as Result<'get_active_project'>;
}

/** set_active_project: by slug or id, for this client session (its correlation id). */
export async function setActiveProject(ctx: AppContext, args: Admitted<'set_active_project'>, session: HandlerSession): Promise<Result<'set_active_project'>> {
  const known = ctx.relay?.port.projects() ?? [];
  const project = findProject(known, args.project);
  if (!ctx.relay || !project) return unknownProject('set_active_project', args.project, known) as Result<'set_active_project'>;
  if (session.correlationId === undefined) {
    return { status: 'invalid_argument', code: 'invalid_argument', failure_detail: 'set_active_project needs a client session: an MCP session, or X-Correlation-Id over HTTP.' } as Result<'set_active_project'>;
  }
  ctx.relay.active.set(session.correlationId, project.id);
  return { status: 'ok', project: shown(project, project.id) } as Result<'set_active_project'>;
}
