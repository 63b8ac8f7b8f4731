import { array, bool, nullable, object, str } from '../answer-schema-parts';
import { statusResult } from '../fragments';
import { defineOperation, type JsonSchema } from '../operation-spec';

/**
 * Projects held by executors (`palimpsest connect`) and the client's choice among them (seed 004):
 * list_projects, get_active_project, set_active_project. The active project belongs to the client
 * session (an MCP session; over HTTP its X-Correlation-Id); a file or command tool's `project` argument
 * overrides it for one call.
 */

/** The `project` argument of every file and command tool: the project for this call alone. */
export const PROJECT_ARGUMENT: JsonSchema = {
  type: 'string',
  minLength: 1,
  maxLength: 128,
  description: 'Project (name or id) for this call only; default: the active one.',
};

/** The idempotency key of a call relayed to an executor: a resent key answers the recorded outcome and never runs twice. */
export const RELAY_KEY_ARGUMENT: JsonSchema = {
  type: 'string',
  pattern: '^[\\x21-\\x7e]{1,128}$',
  description: 'Idempotency key (printable ASCII): a repeat answers the recorded outcome, never applies twice.',
};

/** The codes a project choice answers (beside each tool's own). */
export const PROJECT_CODES = ['NO_ACTIVE_PROJECT', 'UNKNOWN_PROJECT', 'LOCAL_EXECUTOR_OFFLINE'];

export const listProjects = defineOperation({
  name: 'list_projects',
  title: 'List projects',
  description:
    'Projects of the connected executors: slug, id, online, and which is active for this client. Choose with set_active_project, or pass project to one call.',
  readOnly: true,
  params: { type: 'object', additionalProperties: false, properties: {} },
  admission: 'schema',
  result: statusResult(['ok']),
  errors: [],
  examples: [],
  advertisedExamples: 0,
});

export const getActiveProject = defineOperation({
  name: 'get_active_project',
  title: 'Get the active project',
  description: 'The project this client\'s file and command tools run in; NO_ACTIVE_PROJECT: list the projects and ask the user which.',
  readOnly: true,
  params: { type: 'object', additionalProperties: false, properties: {} },
  admission: 'schema',
  result: statusResult(['ok', 'not_found']),
  errors: ['NO_ACTIVE_PROJECT'],
  examples: [],
  advertisedExamples: 0,
});

export const setActiveProject = defineOperation({
  name: 'set_active_project',
  title: 'Set the active project',
  description:
    'Make a project (name or id) active for this client: later file and command calls without project run there, in every conversation of this client.',
  readOnly: true,
  params: { type: 'object', additionalProperties: false, required: ['project'], properties: { project: PROJECT_ARGUMENT } },
  admission: 'schema',
  result: statusResult(['ok', 'not_found']),
  errors: ['UNKNOWN_PROJECT'],
  // Its one example needs an executor's project: the gateway's document shows it (example-requests.ts).
  examples: [],
  advertisedExamples: 0,
});

export const PROJECT_OPERATIONS = [listProjects, getActiveProject, setActiveProject] as const;

const project = object({
  id: str('Stable id (prj_…), from the executor.'),
  slug: str('The name the executor gave it.'),
  online: bool('True while its executor is connected.'),
  active: bool('True when it is this client\'s active project.'),
});

type ProjectOperation = 'list_projects' | 'get_active_project' | 'set_active_project';

export const PROJECT_ANSWERS: Record<ProjectOperation, JsonSchema> = {
  list_projects: object({ status: { const: 'ok' }, projects: array(project), active: nullable(str('The active project\'s id, or null.')) }),
  get_active_project: object({ status: { const: 'ok' }, project }),
  set_active_project: object({ status: { const: 'ok' }, project }),
};

/** The file and command tools an executor performs: each takes `project`; those that change something also `client_request_id`. */
export const RELAYED_TOOLS = [
  'read_file', 'list_files', 'grep', 'edit_file', 'write_file',
  'run_command', 'start_command', 'get_command_output', 'send_command_input', 'kill_command',
] as const;
const KEYED_TOOLS: readonly string[] = ['edit_file', 'write_file', 'run_command', 'start_command', 'send_command_input', 'kill_command'];

/** A file or command tool as the catalog serves it: its seed schema plus `project` (and the idempotency key of a write). */
export function relayable<S extends { name: string; params: JsonSchema; errors: string[] }>(spec: S): S {
  const properties: Record<string, JsonSchema> = { ...(spec.params.properties as Record<string, JsonSchema>), project: PROJECT_ARGUMENT };
  if (KEYED_TOOLS.includes(spec.name)) properties.client_request_id = RELAY_KEY_ARGUMENT;
  return { ...spec, params: { ...spec.params, properties }, errors: [...spec.errors, ...PROJECT_CODES] };
}

const PROJECT_OPERATION_NAMES: readonly string[] = PROJECT_OPERATIONS.map((op) => op.name);

/**
 * Where no executor can connect (stdio, JSON lines) there are no projects: tools/list leaves out the three
 * project tools and the `project` and `client_request_id` arguments (still admitted: they answer UNKNOWN_PROJECT).
 */
export function servedWithoutExecutors(name: string): boolean {
  return !PROJECT_OPERATION_NAMES.includes(name);
}

export function withoutRelayArguments(name: string, params: JsonSchema): JsonSchema {
  if (!(RELAYED_TOOLS as readonly string[]).includes(name)) return params;
  const { project: _p, client_request_id: _k, ...properties } = params.properties as Record<string, JsonSchema>;
  return { ...params, properties };
}
