import { array, int, nullable, object, str } from '../answer-schema-parts';
import { statusResult } from '../fragments';
import { defineOperation, type JsonSchema } from '../operation-spec';

/**
 * The audit reads of client sessions. Every transport gives each client session a correlation id (an
 * MCP session, an HTTP request or its X-Correlation-Id, a JSON-lines connection, a CLI invocation or
 * PALIMPSEST_CORRELATION_ID), and the session's edits and command runs record it: these read them back
 * together, in log order, so an auditor sees "edited src/a.ts, ran npm test, exit 1, edited again".
 */

export const AUDIT_LIMITS = {
  SESSION_ACTIVITY_DEFAULT_LIMIT: 50,
  SESSION_ACTIVITY_MAX_LIMIT: 200,
  SESSIONS_DEFAULT_LIMIT: 20,
  SESSIONS_MAX_LIMIT: 100,
  CORRELATION_ID_MAX_LENGTH: 128,
} as const;

/** What a correlation id may be, on every transport that takes one from its caller: 1-128 of [A-Za-z0-9._:-]. */
export const CORRELATION_ID_PATTERN = '^[A-Za-z0-9._:-]{1,128}$';
const CORRELATION_ID = new RegExp(CORRELATION_ID_PATTERN);

/** The HTTP request header that names the caller's session (absent: one id per request), and the response header that answers it. */
export const CORRELATION_ID_HEADER = 'X-Correlation-Id';
/** The environment variable that names the session of a CLI invocation or a `palimpsest serve` / `palimpsest mcp` process. */
export const CORRELATION_ID_ENV = 'PALIMPSEST_CORRELATION_ID';
/** Where an MCP tool result carries its session's correlation id (`_meta`). */
export const CORRELATION_ID_META = 'palimpsest/correlation_id';

export function isCorrelationId(value: string): boolean {
  return CORRELATION_ID.test(value);
}

const closed = (properties: Record<string, JsonSchema>, required: string[] = []): JsonSchema => ({
  type: 'object', additionalProperties: false, required, properties,
});
const position = (description: string): JsonSchema => ({ type: ['integer', 'null'], minimum: 0, maximum: 9007199254740991, description });
const correlationId: JsonSchema = {
  type: 'string',
  pattern: CORRELATION_ID_PATTERN,
  description: 'The session\'s correlation id (1-128 of A-Z a-z 0-9 . _ : -), as palimpsest_list_sessions lists it.',
};

export const sessionActivity = defineOperation({
  name: 'palimpsest_session_activity',
  title: 'One session\'s edits and command runs',
  description:
    'What one client session did, in log order: each edit (path, attempt, accepted or rejected) and each command run (command, run id, exit code, signal or refusal), with times. Paged: pass next_after_position back as after_position.',
  readOnly: true,
  params: closed({
    correlation_id: correlationId,
    after_position: position('Entries after this log position (default 0: from the start). Pass next_after_position.'),
    limit: { type: ['integer', 'null'], minimum: 1, maximum: AUDIT_LIMITS.SESSION_ACTIVITY_MAX_LIMIT, description: 'Page size (default 50, max 200).' },
  }, ['correlation_id']),
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument']),
  errors: [],
  capabilities: { SESSION_ACTIVITY_MAX_LIMIT: AUDIT_LIMITS.SESSION_ACTIVITY_MAX_LIMIT },
  examples: [{ title: 'A session\'s first page', params: { correlation_id: '0b5e3f7a-1c2d-4e8f-9a0b-6c7d8e9f0a1b', limit: 50 } }],
  advertisedExamples: 0,
});

export const listSessions = defineOperation({
  name: 'palimpsest_list_sessions',
  title: 'Recent client sessions',
  description:
    'Client sessions that edited or ran commands, the most recently active first: correlation id, edit and command-run counts, first and last time. Paged: pass next_before_position back as before_position.',
  readOnly: true,
  params: closed({
    before_position: position('Sessions last active before this log position (default: every one). Pass next_before_position.'),
    limit: { type: ['integer', 'null'], minimum: 1, maximum: AUDIT_LIMITS.SESSIONS_MAX_LIMIT, description: 'Page size (default 20, max 100).' },
  }),
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument']),
  errors: [],
  examples: [{ title: 'The 20 most recent sessions', params: { limit: 20 } }],
  advertisedExamples: 0,
});

export const AUDIT_OPERATIONS = [listSessions, sessionActivity] as const;

const iso = (description: string): JsonSchema => str(`${description} (ISO 8601).`);

const entry = object({
  position: int('The entry\'s log position (global_position of the edit\'s decision or the run\'s request).'),
  kind: { enum: ['edit', 'command'], description: 'An edit by a file tool, or a command run.' },
  tool: nullable(str('The operation that made it (edit_file, write_file, run_command, start_command).')),
  what: str('The edit\'s intent, or the command line as asked.'),
  path: nullable(str('Edits: the workspace path of the file (null when the target is not bound to one).')),
  target_file_id: nullable(str('Edits: the target.')),
  attempt_id: nullable(str('Edits: the attempt (palimpsest_get_attempt_log has it).')),
  run_id: nullable(str('Command runs: the command-run stream.')),
  status: {
    enum: ['accepted', 'rejected', 'exited', 'refused', 'killed', 'running', 'awaiting_approval', 'requested'],
    description: 'Edits: accepted or rejected. Runs: exited, refused, killed (no exit recorded), running, awaiting_approval or requested.',
  },
  version: nullable(int('Accepted edits: the target version it made.')),
  exit_code: nullable(int('Exited runs: the exit code (null when a signal ended it).')),
  signal: nullable(str('Exited runs: the signal that ended it.')),
  reason: nullable(str('Rejected edits: the failure reason. Refused runs: the code (FORBIDDEN, APPROVAL_DECLINED…) and why.')),
  duration_ms: nullable(int('Exited runs: how long it ran.')),
  recorded_at: iso('When it was recorded'),
  ended_at: nullable(iso('Runs: when the run ended (exit, refusal or kill)')),
});

/** What the audit operations' successes carry (beside answer-schemas.ts). */
export const AUDIT_ANSWERS = {
  palimpsest_session_activity: object({
    status: { const: 'ok' },
    correlation_id: str(),
    entries: array(entry, 'In log order; [] when the session recorded nothing (after after_position).'),
    next_after_position: nullable(int('Pass as after_position for the next page; null on the last page.')),
  }),
  palimpsest_list_sessions: object({
    status: { const: 'ok' },
    sessions: array(object({
      correlation_id: str(),
      edits: int('Edits decided (accepted or rejected).'),
      command_runs: int('Commands asked for (run, refused or waiting).'),
      first_at: iso('Its first entry'),
      last_at: iso('Its last entry'),
      first_position: int(),
      last_position: int(),
    })),
    next_before_position: nullable(int('Pass as before_position for the next page; null on the last page.')),
  }),
} satisfies Record<(typeof AUDIT_OPERATIONS)[number]['name'], JsonSchema>;
