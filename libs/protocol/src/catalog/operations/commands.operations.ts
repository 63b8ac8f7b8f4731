import { defineOperation, type JsonSchema } from '../operation-spec';

/**
 * The command tools of the drop-in set (run_command, start_command, get_command_output,
 * send_command_input, kill_command), under their drop-in names with the drop-in input schemas; a success
 * is `{ status: 'ok', ...the drop-in output }`, plus the fields named below as additions. Every command
 * runs at the workspace root as the leader of its own process group, decided by the owner's policy and
 * recorded as a command-run stream (request, decision and rule, start, input digests, kill, exit).
 */

export const COMMAND_LIMITS = {
  DEFAULT_COMMAND_TIMEOUT_MS: 60_000,
  MAX_COMMAND_TIMEOUT_MS: 300_000,
  MAX_COMMAND_OUTPUT_BYTES: 200_000,
  MAX_PROCESSES_PER_PROJECT: 8,
  MAX_PROCESS_BUFFER_BYTES: 256_000,
  MAX_PROCESS_CHUNK_BYTES: 100_000,
  MAX_OUTPUT_WAIT_MS: 30_000,
} as const;

const int: JsonSchema = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 };
const nullableInt: JsonSchema = { anyOf: [int, { type: 'null' }] };
const handle: JsonSchema = { type: 'string', minLength: 1, description: 'Handle returned by start_command.' };
const signal: JsonSchema = { anyOf: [{ type: 'string' }, { type: 'null' }], description: 'The signal that ended the process (exitCode is then null).' };

function commandResult(output: Record<string, JsonSchema>, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    required: ['status'],
    properties: { status: { enum: ['ok', 'rejected', 'not_found', 'invalid_argument'] } },
    if: { properties: { status: { const: 'ok' } } },
    then: { type: 'object', required: ['status', ...Object.keys(output)], additionalProperties: false, properties: { status: { const: 'ok' }, ...output, ...extra } },
  };
}

const runOutput: Record<string, JsonSchema> = { command: { type: 'string' }, exitCode: nullableInt, stdout: { type: 'string' }, stderr: { type: 'string' }, truncated: { type: 'boolean' }, timedOut: { type: 'boolean' } };
const runExtra: Record<string, JsonSchema> = { signal, runId: { type: 'string', description: 'The command-run stream recording this run.' } };
const startOutput: Record<string, JsonSchema> = { processId: { type: 'string' }, command: { type: 'string' }, pid: nullableInt };
const readOutput: Record<string, JsonSchema> = { processId: { type: 'string' }, chunk: { type: 'string' }, nextCursor: int, skipped: { type: 'boolean' }, running: { type: 'boolean' }, exitCode: nullableInt };
const readExtra: Record<string, JsonSchema> = { skippedBytes: { ...int, description: 'Bytes between cursor and the oldest byte still kept.' }, signal };
const inputOutput: Record<string, JsonSchema> = { processId: { type: 'string' }, bytesWritten: int };
const killOutput: Record<string, JsonSchema> = { processId: { type: 'string' }, killed: { type: 'boolean' }, exitCode: nullableInt };
const killExtra: Record<string, JsonSchema> = { signal };

const REFUSALS = ['FORBIDDEN', 'APPROVAL_DECLINED', 'APPROVAL_TIMEOUT', 'too_many_processes', 'spawn_failed', 'cwd_not_supported', 'workspace_not_configured', 'INVALID_ARGUMENTS'];
const GUIDANCE = 'FORBIDDEN and APPROVAL_DECLINED are answers: say what was refused and stop; never reshape the command or route around it.';

export const runCommand = defineOperation({
  name: 'run_command',
  title: 'Run a command to its end',
  description: `Run one command that finishes on its own (tests, a build, git status) at the project root, with stdin closed; answers stdout, stderr (the last 200 KB of each) and the exit code. Killed with everything it started after timeoutMs (60 s default, 300 s at most). Prefer one plain command to a chained one: shell syntax (;, &&, |, $(...), quotes) may be refused. ${GUIDANCE}`,
  readOnly: false,
  params: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'Shell command to run inside the project.' },
      cwd: { description: 'Working directory relative to the project root. Defaults to the root.', type: 'string', minLength: 1 },
      timeoutMs: { description: 'Wall-clock budget in milliseconds (default 60000, max 300000).', type: 'integer', minimum: 1000, maximum: 300000 },
    },
    required: ['command'],
    additionalProperties: false,
  },
  admission: 'schema',
  result: commandResult(runOutput, runExtra),
  errors: REFUSALS,
  capabilities: { DEFAULT_COMMAND_TIMEOUT_MS: COMMAND_LIMITS.DEFAULT_COMMAND_TIMEOUT_MS, MAX_COMMAND_TIMEOUT_MS: COMMAND_LIMITS.MAX_COMMAND_TIMEOUT_MS, MAX_COMMAND_OUTPUT_BYTES: COMMAND_LIMITS.MAX_COMMAND_OUTPUT_BYTES },
  examples: [],
});

export const startCommand = defineOperation({
  name: 'start_command',
  title: 'Start a long-running command',
  description: `Start a command that does not finish on its own (a dev server, a watcher, a REPL) at the project root; answers at once with a processId. Read it with get_command_output, answer it with send_command_input, and kill_command it once done: a project holds at most 8 live processes, so kill what you started. ${GUIDANCE}`,
  readOnly: false,
  params: {
    type: 'object',
    properties: {
      command: { type: 'string', minLength: 1, description: 'Shell command to start inside the project.' },
      cwd: { description: 'Working directory relative to the project root. Defaults to the root.', type: 'string', minLength: 1 },
    },
    required: ['command'],
    additionalProperties: false,
  },
  admission: 'schema',
  result: commandResult(startOutput),
  errors: REFUSALS,
  capabilities: { MAX_PROCESSES_PER_PROJECT: COMMAND_LIMITS.MAX_PROCESSES_PER_PROJECT },
  examples: [],
});

export const getCommandOutput = defineOperation({
  name: 'get_command_output',
  title: 'Read a started command\'s output',
  description:
    'Read a started command\'s output (stdout and stderr as written) from cursor, at most 100 KB; pass nextCursor back next time. The last 256 KB are kept: skipped says the cursor was overtaken (skippedBytes, how much). waitMs waits (up to 30 s) for new output or the exit, so two calls usually suffice instead of a polling loop.',
  readOnly: true,
  params: {
    type: 'object',
    properties: {
      processId: handle,
      cursor: { description: 'Where to read from, as returned by the previous call. Omit to read from the start.', type: 'integer', minimum: 0, maximum: 9007199254740991 },
      waitMs: { description: 'Wait up to this long for output past cursor or the exit (default 0, max 30000).', type: 'integer', minimum: 0, maximum: COMMAND_LIMITS.MAX_OUTPUT_WAIT_MS },
    },
    required: ['processId'],
    additionalProperties: false,
  },
  admission: 'schema',
  result: commandResult(readOutput, readExtra),
  errors: ['PROCESS_NOT_FOUND', 'INVALID_ARGUMENTS'],
  capabilities: { MAX_PROCESS_BUFFER_BYTES: COMMAND_LIMITS.MAX_PROCESS_BUFFER_BYTES, MAX_PROCESS_CHUNK_BYTES: COMMAND_LIMITS.MAX_PROCESS_CHUNK_BYTES },
  examples: [],
});

export const sendCommandInput = defineOperation({
  name: 'send_command_input',
  title: 'Send input to a started command',
  description: `Write to a started command's stdin, exactly as given (a newline appended unless newline is false). Checked by the owner's policy like a command; under an allow list it is refused. ${GUIDANCE}`,
  readOnly: false,
  params: {
    type: 'object',
    properties: {
      processId: handle,
      data: { type: 'string', description: "Written to the process's stdin exactly as given." },
      newline: { description: 'Append a newline. Defaults to true, since most prompts wait for one.', type: 'boolean' },
    },
    required: ['processId', 'data'],
    additionalProperties: false,
  },
  admission: 'schema',
  result: commandResult(inputOutput),
  errors: ['PROCESS_NOT_FOUND', 'process_not_running', 'FORBIDDEN', 'INVALID_ARGUMENTS'],
  examples: [],
});

export const killCommand = defineOperation({
  name: 'kill_command',
  title: 'Kill a started command and everything it started',
  description: 'Stop a started command and every process it started (SIGTERM, then SIGKILL within 2 s); answers once they are gone. killed is false when it had already ended.',
  readOnly: false,
  params: { type: 'object', properties: { processId: handle }, required: ['processId'], additionalProperties: false },
  admission: 'schema',
  result: commandResult(killOutput, killExtra),
  errors: ['PROCESS_NOT_FOUND', 'INVALID_ARGUMENTS'],
  examples: [],
});

export const COMMAND_OPERATIONS = [runCommand, startCommand, getCommandOutput, sendCommandInput, killCommand] as const;

const answer = (output: Record<string, JsonSchema>, extra: Record<string, JsonSchema> = {}): JsonSchema => ({
  type: 'object',
  required: ['status', ...Object.keys(output)],
  properties: { status: { const: 'ok' }, ...output, ...extra },
});

/** What each command tool's success carries (beside answer-schemas.ts). */
export const COMMAND_ANSWERS = {
  run_command: answer(runOutput, runExtra),
  start_command: answer(startOutput),
  get_command_output: answer(readOutput, readExtra),
  send_command_input: answer(inputOutput),
  kill_command: answer(killOutput, killExtra),
} satisfies Record<(typeof COMMAND_OPERATIONS)[number]['name'], JsonSchema>;
