import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly, type OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import { RUNTIME, PROTOCOL } from '@palimpsest/core/transaction/transaction.types';
import { READ_BOUNDS } from '@palimpsest/core/reads/read-bounds';
import {
  REPLACEMENT_MAX_CODE_POINTS,
  REPLACEMENT_MAX_UTF8_BYTES,
} from '@palimpsest/core/transaction/replacement-admission';
import { MAX_CHANGES_PER_TRANSACTION } from '@palimpsest/core/transaction/parse-proposal';
import { operationRefusal } from '@palimpsest/core/policy/policy-decisions';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { WorkspaceRoot } from '@palimpsest/workspace/workspace-root';
import { DEFAULT_GREP_TIMEOUT_MS } from '@palimpsest/workspace/workspace-grep';
import { HISTORY_PAGE } from '../shared/sql-values';
import { ATTEMPT_CONTENT_PAGE_BUDGET } from '../queries/attempt-log.handler';
import { FILE_READ_LIMITS } from '@palimpsest/protocol/catalog/operations/file-reads.operations';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

export interface SessionProfile {
  profile: 'full' | 'read-only';
  /** The caller's owner policy, when one applies (MCP/serve profile, API token). */
  policy?: OwnerPolicy | null;
}

function statusOf(session: SessionProfile, op: OperationSpec): 'available' | 'not_permitted' {
  const readOnly = servedReadOnly(op);
  if (session.profile === 'read-only' && !readOnly) return 'not_permitted';
  return session.policy && operationRefusal(session.policy, { name: op.name, readOnly }) ? 'not_permitted' : 'available';
}

const TX_PROFILES = [
  { protocol: PROTOCOL.tx1, runtime: RUNTIME.typedMatch, operations: ['match'] },
  { protocol: PROTOCOL.tx2, runtime: RUNTIME.spanOps, operations: ['match', 'span'] },
  { protocol: PROTOCOL.tx2, runtime: RUNTIME.spanContext, operations: ['match', 'span'], span_context: true },
  { protocol: PROTOCOL.tx3, runtime: RUNTIME.replacement, operations: ['replace_all'] },
];

/** The configured workspace root: its path as configured, and the device and inode of the directory opened at start. */
function workspaceOf(root: WorkspaceRoot | null) {
  return root
    ? { configured: true, root: root.path, device: root.dev, inode: root.ino }
    : { configured: false, root: null, device: null, inode: null };
}

/** The profile's name as the caller chose it: a policy's own (files, a policy file's), else the session's. */
export const profileName = (session: SessionProfile): string => session.policy?.name ?? session.profile;

/**
 * The manifest: derived from the catalog, the caller's policy and the runtime constants, never restated.
 * By default it lists only what this session can call and the codes those operations answer; `detail`
 * adds every operation with its status and its own codes.
 */
export function capabilitiesManifest(session: SessionProfile, workspace: WorkspaceRoot | null = null, detail = false, grepTimeoutMs = DEFAULT_GREP_TIMEOUT_MS) {
  const callable = CATALOG.filter((op) => statusOf(session, op) === 'available');
  const submits = callable.some((op) => op.name.startsWith('palimpsest_submit') || op.name === OP.palimpsest_preview);
  return {
    status: 'ok' as const,
    service: 'palimpsest' as const,
    profile: profileName(session),
    policy: session.policy ? { name: session.policy.name, mode: session.policy.mode, approve: session.policy.approve } : null,
    operations: detail
      ? CATALOG.map((op) => ({ name: op.name, read_only: op.readOnly, status: statusOf(session, op), errors: op.errors }))
      : callable.map((op) => ({ name: op.name, read_only: op.readOnly })),
    error_codes: [...new Set((detail ? CATALOG : callable).flatMap((op) => op.errors))].sort(),
    workspace: workspaceOf(workspace),
    limits: {
      read_default_chars: READ_BOUNDS.defaultChars,
      read_max_chars: READ_BOUNDS.maxChars,
      find_context_default: READ_BOUNDS.defaultContextChars,
      find_context_max: READ_BOUNDS.maxContextChars,
      find_max_results: READ_BOUNDS.maxResults,
      history_default_limit: HISTORY_PAGE.defaultLimit,
      history_max_limit: HISTORY_PAGE.maxLimit,
      attempt_content_page_bytes: ATTEMPT_CONTENT_PAGE_BUDGET,
      replacement_max_code_points: REPLACEMENT_MAX_CODE_POINTS,
      replacement_max_utf8_bytes: REPLACEMENT_MAX_UTF8_BYTES,
      max_changes_per_transaction: MAX_CHANGES_PER_TRANSACTION,
      ...FILE_READ_LIMITS,
      grep_timeout_ms: grepTimeoutMs,
    },
    profiles: detail || submits ? TX_PROFILES : [],
    detail,
  };
}
