import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import { PROTOCOL, type ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import type { AppContext } from '../app-context';
import { proposalOf } from '../shared/submission-tools';
import { initializeTarget, type InitializeTargetInput } from '../initialize-target/initialize-target.handler';
import { getAttemptLog } from '../queries/attempt-log.handler';
import { getManifestLedger } from '../queries/manifest-ledger.handler';
import {
  exportTargetQuery,
  findOccurrencesQuery,
  getTarget,
  readLinesQuery,
  readTargetQuery,
} from '../queries/target-reads.handler';
import { replayTargetQuery } from '../replay-target/replay-target.handler';
import { capabilitiesManifest } from '../capabilities/capabilities.handler';
import { previewProposal } from '../preview-proposal/preview-proposal.handler';
import { saveCheckpoint } from '../save-checkpoint/save-checkpoint.handler';
import { submitProposal } from '../submit-proposal/submit-proposal.handler';
import { CANDIDATE_HANDLERS } from '../candidates/candidate-handlers';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';

type Args = Record<string, any>;
export interface HandlerSession {
  profile: 'full' | 'read-only';
  /** The caller's owner policy (MCP profile or API token), when one is in force. */
  policy?: OwnerPolicy | null;
}

export type OperationHandler = (
  ctx: AppContext,
  args: Args,
  session: HandlerSession,
) => Promise<Record<string, unknown>>;


/** Split submission arguments into the envelope and the proposal fields the caller supplied. */
function submission(protocol: ProtocolVersion): OperationHandler {
  return (ctx, args) => {
    const proposal = proposalOf(args);
    return submitProposal(ctx, {
      target_file_id: args.target_file_id,
      protocol_version: protocol,
      proposal,
      expected_target_version: args.expected_target_version,
      expected_current_hash: args.expected_current_hash,
      client_request_id: args.client_request_id,
      parent_attempt_id: args.parent_attempt_id,
      attempt: args.attempt,
      source: args.source,
      include_correlation_id: args.include_correlation_id,
    });
  };
}

/** Every catalog operation has exactly one handler; a missing one is a compile error. */
export const OPERATION_HANDLERS: Record<OperationName, OperationHandler> = {
  palimpsest_initialize_target: (ctx, a) => initializeTarget(ctx, a as InitializeTargetInput),
  palimpsest_handle_upload: (ctx, a) => initializeTarget(ctx, { ...(a as InitializeTargetInput), from_workspace: false }),
  palimpsest_get_target: (ctx, a) => getTarget(ctx, a as { target_file_id: unknown }),
  palimpsest_export_target: (ctx, a) => exportTargetQuery(ctx, a as never),
  palimpsest_read_target: (ctx, a) => readTargetQuery(ctx, a as never),
  palimpsest_read_lines: (ctx, a) => readLinesQuery(ctx, a as never),
  palimpsest_find_occurrences: (ctx, a) => findOccurrencesQuery(ctx, a as never),
  palimpsest_submit_edits: submission(PROTOCOL.tx1),
  palimpsest_submit_operations: submission(PROTOCOL.tx2),
  palimpsest_submit_replacement: submission(PROTOCOL.tx3),
  palimpsest_preview: (ctx, a) => previewProposal(ctx, a as never),
  palimpsest_save: (ctx, a) => saveCheckpoint(ctx, a as never),
  palimpsest_replay: (ctx, a) => replayTargetQuery(ctx, a as never) as Promise<Record<string, unknown>>,
  palimpsest_get_attempt_log: (ctx, a) => getAttemptLog(ctx, a as never),
  palimpsest_get_manifest_ledger: (ctx, a) => getManifestLedger(ctx, a as never),
  palimpsest_capabilities: async (_ctx, _a, session) => capabilitiesManifest(session),
  ...CANDIDATE_HANDLERS,
};
