import { guardHash, guardVersion, statusResult, targetParams } from '../fragments';
import { defineOperation } from '../operation-spec';

/**
 * The workspace beyond import: take a file changed outside Palimpsest back onto the record, and see
 * every bound file's state against the bytes it should hold.
 */

const PATH_CODES = ['PATH_NOT_FOUND', 'PATH_SYMLINK', 'PATH_NOT_A_FILE', 'PATH_CHANGED'];

export const workspaceRefresh = defineOperation({
  name: 'palimpsest_workspace_refresh',
  title: 'Refresh from the workspace file',
  description:
    'Take a drifted bound file\'s bytes into its target (an accepted replacement with source "external_disk") and move its baseline; in_sync if unchanged. Resolves a pending publication of the file.',
  readOnly: false,
  params: targetParams({ expected_target_version: guardVersion, expected_current_hash: guardHash }),
  admission: 'schema',
  result: statusResult(['refreshed', 'in_sync', 'rejected', 'not_found', 'invalid_argument']),
  errors: [
    'not_found',
    'target_version_mismatch',
    'target_hash_mismatch',
    'target_not_bound_to_workspace',
    'workspace_not_configured',
    'workspace_root_mismatch',
    'invalid_text_encoding',
    'file_too_large',
    'replacement_too_large',
    ...PATH_CODES,
  ],
  examples: [],
});

export const workspaceStatus = defineOperation({
  name: 'palimpsest_workspace_status',
  title: 'Workspace status',
  description:
    'Bound files a page at a time in path order: in_sync, drifted, missing, pending (a journal open, or the target ahead) or unreachable (a path refusal, in code).',
  readOnly: true,
  params: {
    type: 'object',
    additionalProperties: false,
    properties: {
      path_prefix: { type: ['string', 'null'], description: 'Only files whose path starts with this text.' },
      state: { enum: ['in_sync', 'drifted', 'missing', 'pending', 'unreachable', null], description: 'Only files in this state.' },
      limit: { type: ['integer', 'null'], minimum: 1, maximum: 1000, description: 'Page size: default 100, at most 1000.' },
      cursor: { type: ['string', 'null'], description: 'Continue after the previous page: pass its next_cursor.' },
    },
  },
  admission: 'schema',
  result: statusResult(['ok', 'invalid_argument']),
  errors: ['workspace_not_configured', 'invalid_cursor'],
  examples: [],
});
