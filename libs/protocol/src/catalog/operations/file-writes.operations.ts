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
    'Replace the one place in an existing file where oldString matches exactly (matched on LF text; the file keeps its endings). No match or several: refused with ready edit_file calls (one per occurrence, or the closest text): send the one meant. Answers a unified diff: check it. A file changed on disk is never overwritten. An approval policy waits for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop.',
  readOnly: false,
  params: {
    type: 'object',
    additionalProperties: false,
    required: ['path', 'oldString', 'newString'],
    properties: {
      path,
      oldString: { type: 'string', minLength: 1, description: 'Exact text, found exactly once (add surrounding lines to make it unique).' },
      newString: { type: 'string', description: 'Replacement text.' },
      near_line: { type: 'integer', minimum: 1, maximum: 9007199254740991, description: 'Expected line of oldString: orders the calls an ambiguous refusal offers.' },
      detail: { type: 'boolean', description: 'A refusal also carries its full diagnostic.' },
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
    'Create a file (parents made) or replace one whole; edit an existing file with edit_file. An existing file keeps its line endings and mode, a new one follows the umask; a file that appears or changes meanwhile is kept. Under an approval policy every write waits for an operator. FORBIDDEN, APPROVAL_DECLINED, APPROVAL_TIMEOUT are answers: say what was refused and stop.',
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
