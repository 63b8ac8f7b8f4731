import { defineOperation, type JsonSchema } from '../operation-spec';
import { asOfParam } from './history.operations';

/**
 * The read tools of seed 004 (read_file, list_files, grep), under the seed's names so an agent written
 * against it drops in. Params are the seed's input schemas as published (without $schema); a success is
 * `{ status: 'ok', ...the seed's output }`, exactly the seed's fields beside status (the `then` below).
 * Limits are the seed's: MAX_READ_BYTES, MAX_LIST_ENTRIES, MAX_GREP_MATCHES, MAX_RESULT_BYTES.
 */

export const FILE_READ_LIMITS = {
  MAX_READ_BYTES: 500_000,
  MAX_LIST_ENTRIES: 1000,
  MAX_GREP_MATCHES: 200,
  MAX_RESULT_BYTES: 1_000_000,
} as const;

const int: JsonSchema = { type: 'integer', minimum: -9007199254740991, maximum: 9007199254740991 };
const projectPath = (description: string): JsonSchema => ({ type: 'string', minLength: 1, description });

/** A result: the status says which shape follows; an ok answer holds exactly the seed's output fields, and `extra` when it applies. */
function seedResult(statuses: string[], output: Record<string, JsonSchema>, extra: Record<string, JsonSchema> = {}): JsonSchema {
  return {
    type: 'object',
    required: ['status'],
    properties: { status: { enum: [...statuses, 'invalid_argument'] } },
    if: { properties: { status: { const: 'ok' } } },
    then: { type: 'object', required: ['status', ...Object.keys(output)], additionalProperties: false, properties: { status: { const: 'ok' }, ...output, ...extra } },
  };
}

/** A bound file behind its target (workspace status pending): the read answers the target's text. */
const pendingFile: JsonSchema = {
  type: 'object',
  required: ['path', 'target_file_id', 'version', 'disk_version'],
  properties: { path: { type: 'string' }, target_file_id: { type: 'string' }, version: int, disk_version: int },
};
/** A read as of a point: the bound file's version it read, with its recorded hash and time. */
const asOfRead: JsonSchema = {
  type: 'object',
  required: ['target_file_id', 'version', 'after_hash', 'written_at', 'log_sequence'],
  properties: { target_file_id: { type: 'string' }, version: int, after_hash: { type: 'string' }, written_at: { type: 'string' }, log_sequence: int, attempt_id: { type: ['string', 'null'] } },
};
const readFileExtra: Record<string, JsonSchema> = {
  pending: { ...pendingFile, description: 'The disk is behind: content is the target text.' },
  as_of: { ...asOfRead, description: 'Read as of a point: the version whose text content is (in the file\'s line endings).' },
};
const grepExtra: Record<string, JsonSchema> = { pending: { type: 'array', items: pendingFile, description: 'Files searched in their target text (disk behind).' } };

const PATH_CODES = ['PATH_ESCAPE', 'PATH_INVALID', 'PATH_RESERVED', 'PATH_TOO_LONG', 'PATH_NOT_FOUND', 'PATH_SYMLINK', 'PATH_CHANGED'];

const readFileOutput: Record<string, JsonSchema> = {
  path: { type: 'string' },
  content: { type: 'string' },
  truncated: { type: 'boolean' },
  totalLines: int,
};

export const readFile = defineOperation({
  name: 'read_file',
  title: 'Read a file',
  description:
    'Read a workspace file as UTF-8 text, as on disk (CRLF kept; pending: target text); grep first, read last. At most 500 KB of whole lines, with totalLines and truncated: continue with offset (1-based line). A path leaving the root is PATH_ESCAPE, a missing file PATH_NOT_FOUND; links are never followed.',
  readOnly: true,
  params: {
    type: 'object',
    properties: {
      path: projectPath('Path relative to the project root. Must stay inside the project.'),
      offset: { description: '1-based line to start reading from. Omit to start at the beginning.', type: 'integer', minimum: 1, maximum: 9007199254740991 },
      limit: { description: 'Maximum number of lines to return. Omit to read to the end.', type: 'integer', minimum: 1, maximum: 9007199254740991 },
      as_of: asOfParam,
    },
    required: ['path'],
    additionalProperties: false,
  },
  admission: 'schema',
  result: seedResult(['ok', 'not_found'], readFileOutput, readFileExtra),
  errors: ['workspace_not_configured', 'invalid_text_encoding', 'file_too_large', 'INVALID_ARGUMENTS', 'PATH_NOT_A_FILE', 'target_not_bound_to_workspace', 'invalid_as_of', 'as_of_out_of_range', ...PATH_CODES],
  capabilities: { MAX_READ_BYTES: FILE_READ_LIMITS.MAX_READ_BYTES },
  examples: [],
});

const listFilesOutput: Record<string, JsonSchema> = {
  path: { type: 'string' },
  entries: {
    type: 'array',
    items: {
      type: 'object',
      properties: { path: { type: 'string' }, type: { type: 'string', enum: ['file', 'directory', 'symlink'] }, size: int },
      required: ['path', 'type'],
      additionalProperties: false,
    },
  },
  truncated: { type: 'boolean' },
};

export const listFiles = defineOperation({
  name: 'list_files',
  title: 'List files',
  description:
    'A directory\'s shape (the root by default). glob filters (**/*.ts), recursive walks, respecting .gitignore and skipping .git and node_modules. Entries {path, type, size}, sorted, at most 1,000 (truncated: narrow path or glob). Links are listed, never entered; a file path lists that file alone.',
  readOnly: true,
  params: {
    type: 'object',
    properties: {
      path: { description: 'Directory to list. Defaults to the project root.', type: 'string', minLength: 1 },
      recursive: { description: 'Walk subdirectories. Defaults to false.', type: 'boolean' },
      glob: { description: "Only return entries matching this glob, e.g. '**/*.ts'.", type: 'string' },
    },
    additionalProperties: false,
  },
  admission: 'schema',
  result: seedResult(['ok', 'not_found'], listFilesOutput),
  errors: ['workspace_not_configured', ...PATH_CODES],
  capabilities: { MAX_LIST_ENTRIES: FILE_READ_LIMITS.MAX_LIST_ENTRIES, MAX_RESULT_BYTES: FILE_READ_LIMITS.MAX_RESULT_BYTES },
  examples: [],
});

const grepOutput: Record<string, JsonSchema> = {
  matches: {
    type: 'array',
    items: {
      type: 'object',
      properties: { path: { type: 'string' }, line: int, text: { type: 'string' } },
      required: ['path', 'line', 'text'],
      additionalProperties: false,
    },
  },
  truncated: { type: 'boolean' },
};

export const grep = defineOperation({
  name: 'grep',
  title: 'Search files',
  description:
    'Search first: a JavaScript regular expression over the workspace\'s text files; each match is path, 1-based line and the line. Files as a recursive list_files, narrowed by glob; path may name one file. At most 200 matches: narrow the pattern rather than page. Past its time budget (1 s) it answers TOOL_TIMEOUT.',
  readOnly: true,
  params: {
    type: 'object',
    properties: {
      pattern: { type: 'string', minLength: 1, description: 'Regular expression to search for.' },
      path: { description: 'Directory to search. Defaults to the project root.', type: 'string', minLength: 1 },
      glob: { description: 'Restrict the search to files matching this glob.', type: 'string' },
      caseInsensitive: { description: 'Ignore case. Defaults to false.', type: 'boolean' },
      maxResults: { description: 'Maximum matches to return (max 200).', type: 'integer', minimum: 1, maximum: 200 },
    },
    required: ['pattern'],
    additionalProperties: false,
  },
  admission: 'schema',
  result: seedResult(['ok', 'not_found'], grepOutput, grepExtra),
  errors: ['workspace_not_configured', 'INVALID_ARGUMENTS', 'TOOL_TIMEOUT', ...PATH_CODES],
  capabilities: { MAX_GREP_MATCHES: FILE_READ_LIMITS.MAX_GREP_MATCHES },
  examples: [],
});

export const FILE_READ_OPERATIONS = [grep, listFiles, readFile] as const;

/** What each success carries, for the OpenAPI answers (answer-schemas.ts). */
export const FILE_READ_ANSWERS = {
  read_file: { type: 'object', required: ['status', ...Object.keys(readFileOutput)], properties: { status: { const: 'ok' }, ...readFileOutput, ...readFileExtra } },
  list_files: { type: 'object', required: ['status', ...Object.keys(listFilesOutput)], properties: { status: { const: 'ok' }, ...listFilesOutput } },
  grep: { type: 'object', required: ['status', ...Object.keys(grepOutput)], properties: { status: { const: 'ok' }, ...grepOutput, ...grepExtra } },
} satisfies Record<(typeof FILE_READ_OPERATIONS)[number]['name'], JsonSchema>;
