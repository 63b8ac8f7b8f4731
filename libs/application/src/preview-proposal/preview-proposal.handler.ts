import { decide } from '@palimpsest/core/target/target.decider';
import type { RejectedRequest } from '@palimpsest/core/diagnostics/retry-request';
import { preview } from '@palimpsest/protocol/catalog/operations/meta.operations';
import { PROTOCOL, type ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import { invalidArgument } from '@palimpsest/core/errors/invalid-argument';
import type { TargetEvent } from '@palimpsest/core/target/target.events';
import type { AppContext } from '../app-context';
import { refusalAnswer } from '../shared/target-refusals';
import { proposalOf } from '../shared/submission-tools';
import { enrichRejection, type RejectionEnrichment } from '../submit-proposal/rejection-enrichment';
import { boundPreview, type PreviewAnswer } from './preview-bounds';
import { OP } from '@palimpsest/core/errors/operation-names.generated';
import type { Result } from '@palimpsest/protocol/catalog/operation-types';
import { targetIdOf, notFound } from '../shared/target-lookup';
import { readTargetRow } from '@palimpsest/projections/content/target-row.queries';

export interface PreviewInput {
  target_file_id: unknown;
  format: unknown;
  expected_target_version?: unknown;
  expected_current_hash?: unknown;
  intent?: unknown;
  edits?: unknown;
  operations?: unknown;
  replacement?: unknown;
}

const FORMATS: readonly string[] = Object.values(PROTOCOL);
/** Preview never holds a key or lineage: the decision runs with placeholders that are never stored. */
const PREVIEW_ATTEMPT_ID = '00000000-0000-4000-8000-000000000000';

/** The version and hash the preview was evaluated on (no lock: both observed on one read). */
type Observed = Pick<PreviewAnswer, 'current_version' | 'current_hash' | 'before_version' | 'before_hash'>;

/**
 * The submission evaluator on one coherent observation: no lock, no row, no commit.
 * Submission always re-locks and rechecks, so a preview is advisory.
 */
export async function previewProposal(ctx: AppContext, input: PreviewInput): Promise<Result<OP.palimpsest_preview>> {
  const { id: targetId, error } = targetIdOf(input.target_file_id);
  if (error) return error;
  if (typeof input.format !== 'string' || !FORMATS.includes(input.format)) {
    return invalidArgument('unsupported_format', `format must be one of ${FORMATS.join(', ')}.`, {
      argument: 'format',
      detail: 'unsupported_format',
      allowed_formats: FORMATS,
    });
  }
  const target = await readTargetRow(ctx.db, targetId, ctx.contents);
  if (!target) return notFound(targetId);
  const proposal = proposalOf(input as unknown as Record<string, unknown>);
  const observed: Observed = {
    current_version: target.version,
    current_hash: target.current_hash,
    before_version: target.version,
    before_hash: target.current_hash,
  };
  const outcome = decide(
    {
      type: 'SubmitProposal',
      now: ctx.clock.now(),
      attempt_id: PREVIEW_ATTEMPT_ID,
      target_id: target.target_id,
      protocol_version: input.format as ProtocolVersion,
      proposal,
      expected_target_version: input.expected_target_version,
      expected_current_hash: input.expected_current_hash,
      lookups: { keyed: null, parent: null },
    },
    target,
  );
  if (outcome.kind === 'refused') {
    const request: RejectedRequest = { operation: preview.name, args: Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined)) };
    return { ...refusalAnswer(outcome.refusal, request), preview: true, advisory: true };
  }
  const event = outcome.events[0];
  const base = { preview: true as const, advisory: true as const, target_file_id: target.target_id };
  const args = Object.fromEntries(Object.entries(input).filter(([, v]) => v !== undefined));
  const enrichment: RejectionEnrichment = {
    request: { operation: OP.palimpsest_preview, args },
    current: target,
    nearMissSource: outcome.hints.nearMissSource,
    recorded: false,
    now: ctx.clock.now(),
  };
  return boundPreview(event.type === 'ProposalRejected' ? enrichRejection(previewBody(base, observed, event), enrichment) : previewBody(base, observed, event));
}

function previewBody(base: Pick<PreviewAnswer, 'preview' | 'advisory' | 'target_file_id'>, observed: Observed, event: TargetEvent): PreviewAnswer {
  if (event.type === 'ProposalAccepted') {
    const d = event.data;
    return {
      ...base,
      status: 'accepted' as const,
      stage: 'transaction_applicability',
      validity: { protocol_valid: true, transaction_valid: true, task_correct: 'not_evaluated', semantic: 'not_evaluated' },
      ...observed,
      after_hash: d.after_hash,
      change_facts: d.change_facts,
      warnings: d.warnings?.warnings ?? [],
      warning_details: d.warnings?.warning_details ?? [],
      warning_count: d.warnings?.warning_count ?? 0,
      warnings_truncated: d.warnings?.warnings_truncated ?? false,
    };
  }
  if (event.type !== 'ProposalRejected') throw new Error(`preview decided ${event.type}`);
  const d = event.data;
  return {
    ...base,
    status: 'rejected' as const,
    stage: d.validation_stage,
    validity: {
      protocol_valid: d.validation_stage !== 'PROTOCOL_VALIDATION',
      transaction_valid: false,
      task_correct: 'not_evaluated',
      semantic: 'not_evaluated',
    },
    ...observed,
    failure_reason: d.failure_reason,
    failure_detail: d.failure_detail,
    failed_change_id: d.failed_change_id,
    diagnostic: d.diagnostic,
  };
}
