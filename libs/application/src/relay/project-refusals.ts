import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { RefusalDetails } from '@palimpsest/core/errors/refusal-details';
import type { Outcome } from '@palimpsest/protocol/outcome';
import type { RelayProject } from './project-relay.port';

const listThem = { operation: 'list_projects' as const, reason: 'See the projects this gateway reaches, and which is active.', params: {} };

/** Nothing selected and no `project` argument: list the projects and ask the user which, rather than choosing. */
export function noActiveProject(tool: string): Outcome {
  return {
    status: 'invalid_argument',
    code: 'NO_ACTIVE_PROJECT',
    answer: 'NO_ACTIVE_PROJECT',
    retryable: 'none',
    failure_detail: `${tool} runs in a project and none is active for this client: list the projects, ask the user which one, then set_active_project or pass project.`,
    next_actions: [listThem],
  } as Outcome;
}

/** A project name or id no executor has announced to this gateway. */
export function unknownProject(tool: string, given: string, known: RelayProject[]): Outcome {
  const names = known.map((p) => p.slug);
  return {
    status: 'not_found',
    code: 'UNKNOWN_PROJECT',
    answer: 'UNKNOWN_PROJECT',
    retryable: 'none',
    failure_detail: `${tool}: no project ${JSON.stringify(given)} on this gateway${names.length ? `; known: ${names.join(', ')}` : '; no executor has connected a project'}.`,
    next_actions: [listThem],
  } as Outcome;
}

/** The project's executor is not connected: the machine sleeps or `palimpsest connect` is not running. Retrying will not fix it. */
export function executorOffline(tool: string, project: RelayProject, detail = 'its executor is not connected', code: OfflineCode = 'LOCAL_EXECUTOR_OFFLINE', extra: RefusalDetails = {}): Outcome {
  const failureDetail = `${tool} in project ${project.slug}: ${detail} (the machine is asleep or \`palimpsest connect\` is not running there). Tell the user; retrying will not fix it.`;
  return { ...invalidArgument(code, failureDetail, { answer: code, next_actions: [listThem], ...extra }), retryable: 'none' };
}

export type OfflineCode = 'LOCAL_EXECUTOR_OFFLINE' | 'TOOL_TIMEOUT';
