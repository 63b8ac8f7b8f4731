import { statusResult } from '../fragments';
import { defineOperation } from '../operation-spec';

/**
 * The agent file tools that write (seed 004's edit_file and write_file, its exact input schemas): every
 * write a guarded transaction on the file's target, recorded, replayable, published through the
 * workspace journal.
 */

const path = { type: 'string', minLength: 1, description: 'Path relative to the project root. Must stay inside the project.' };

const WRITE_CODES = [
  'PATH_ESCAPE', 'PATH_INVALID', 'PATH_RESERVED', 'PATH_TOO_LONG', 'PATH_NOT_FOUND', 'PATH_SYMLINK', 'PATH_NOT_A_FILE', 'PATH_CHANGED',
  'external_disk_drift', 'workspace_busy', 'recovery_required', 'workspace_io_error', 'workspace_not_configured', 'invalid_text_encoding', 'file_too_large',
  'target_version_mismatch', 'operation_not_permitted', 'approval_declined', 'approval_timeout', 'CANCELLED', 'external_write',
];

export const editFile = defineOperation({
  name: 'edit_file',
  title: 'Edit a file (oldString exactly once)',
  description:
    'Replace the one place in an existing file where oldString matches exactly (read it first; matching runs on LF text, the file keeps its endings). Zero or several matches are refused with ready edit_file calls, one per occurrence (oldString widened just enough to be unique) or with the closest text: send the one you meant, never resend the same string. Answers a unified diff: check it. A file changed on disk since is never overwritten. An approval policy makes it wait for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop.',
  readOnly: false,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'oldString', 'newString'],
    properties: {
      path,
      oldString: { type: 'string', minLength: 1, description: 'Exact text to replace. Must match the file byte for byte and must appear exactly once, include surrounding lines to make it unique.' },
      newString: { type: 'string', description: 'Replacement text.' },
      near_line: { type: 'integer', minimum: 1, maximum: 9007199254740991, description: 'Optional: the 1-based line you expect oldString on. Never selects: when oldString is ambiguous, the ready calls offered are for the occurrences nearest this line.' },
      detail: { type: 'boolean', description: 'Optional: a refusal also carries the recorded diagnostic and the text around the failure (default: a lean answer).' },
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'rejected', 'partial', 'not_found', 'invalid_argument']),
  errors: ['match_absent', 'match_ambiguous', ...WRITE_CODES],
  examples: [],
});

export const writeFile = defineOperation({
  name: 'write_file',
  title: 'Write a whole file',
  description:
    'Create a file (parents made for you) or replace one whole; edit an existing file with edit_file instead. An existing file keeps its line endings and mode; a new one gets 0600; a file that appears or changes meanwhile is kept. Under an approval policy every write waits for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop.',
  readOnly: false,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'content'],
    properties: {
      path,
      content: { type: 'string', description: 'Full contents to write. Overwrites any existing file.' },
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'rejected', 'partial', 'not_found', 'invalid_argument']),
  errors: WRITE_CODES,
  examples: [],
});

export const FILE_WRITE_OPERATIONS = [editFile, writeFile] as const;
