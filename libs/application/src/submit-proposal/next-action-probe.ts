import type { NextActionProbe } from '@palimpsest/core/diagnostics/next-actions';
import { changesOf } from '@palimpsest/core/diagnostics/retry-request';
import { submissionCommand, type ObservedLookups, type SubmissionCommand } from '@palimpsest/core/target/target.commands';
import { decide } from '@palimpsest/core/target/target.decider';
import type { ExistingTarget } from '@palimpsest/core/target/target.state';
import type { ProtocolVersion } from '@palimpsest/core/transaction/transaction.types';
import { admit } from '@palimpsest/protocol/admission';
import { findOperation } from '@palimpsest/protocol/catalog/catalog';
import { SUBMISSION_TOOL, SUBMIT_OBSERVED, proposalOf } from '../shared/submission-tools';
import { OP } from '@palimpsest/core/errors/operation-names.generated';

/** palimpsest_submit_observed_operations: tx/2 bound to an observation (single) or a bundle's groups (batch). */
const OBSERVED_FIELDS = ['intent', 'observation_bundle_id', 'groups', 'observation_id', 'operations'] as const;

/** What an observed submission found under the row lock (the observed and batch commands' lookups). */
export type { ObservedLookups } from '@palimpsest/core/target/target.commands';

/** Never stored: a probe decides and discards. */
const PROBE_ATTEMPT_ID = '00000000-0000-4000-8000-000000000001';

const PROTOCOL_OF: ReadonlyMap<string, ProtocolVersion> = new Map(
  Object.entries(SUBMISSION_TOOL).map(([protocol, tool]) => [tool, protocol as ProtocolVersion]),
);

function protocolOf(operation: string, args: Record<string, unknown>): ProtocolVersion | null {
  if (operation === OP.palimpsest_preview) return Object.hasOwn(SUBMISSION_TOOL, String(args.format)) ? (args.format as ProtocolVersion) : null;
  if (operation === SUBMIT_OBSERVED) return 'patchdiff-tx/2';
  return PROTOCOL_OF.get(operation) ?? null;
}

export interface ProbeBasis {
  state: ExistingTarget;
  /** The rejected attempt a resubmission may name as its parent (recorded on this target), or null. */
  rejectedAttemptId: string | null;
  now: string;
  /** An observed submission's lookups: a rejection changes no observation, so they hold for its corrections. */
  observed?: ObservedLookups;
}

const isBatch = (args: Record<string, unknown>) => args.observation_bundle_id !== undefined || args.groups !== undefined;

/** The proposal as the observed forms hand it over, and the lookups that hold for it (the same observation or bundle only). */
function observedCommand(b: ProbeBasis, args: Record<string, unknown>): { proposal: Record<string, unknown>; found: ObservedLookups } {
  const fields = isBatch(args) ? OBSERVED_FIELDS : (['intent', 'operations'] as const);
  const proposal: Record<string, unknown> = {};
  for (const key of fields) if (args[key] !== undefined) proposal[key] = args[key];
  const single = b.observed?.observed;
  if (!isBatch(args)) {
    const same = single && String(single.observation_id).toLowerCase() === String(args.observation_id).toLowerCase();
    return { proposal, found: { observed: same ? single : { observation_id: args.observation_id, found: null, reverified: false } } };
  }
  const batch = b.observed?.batch;
  return { proposal, found: { batch: batch ?? { bundle_known: false, found: {}, reverified: {} } } };
}

function commandOf(b: ProbeBasis, protocol: ProtocolVersion, args: Record<string, unknown>, operation: string): SubmissionCommand {
  const parent =
    b.rejectedAttemptId !== null && args.parent_attempt_id === b.rejectedAttemptId
      ? { attempt_id: b.rejectedAttemptId, target_id: b.state.target_id, status: 'rejected' as const }
      : null;
  const { proposal, found } = operation === SUBMIT_OBSERVED ? observedCommand(b, args) : { proposal: proposalOf(args), found: undefined };
  return submissionCommand({
    now: b.now,
    attempt_id: PROBE_ATTEMPT_ID,
    target_id: b.state.target_id,
    protocol_version: protocol,
    proposal,
    expected_target_version: args.expected_target_version,
    expected_current_hash: args.expected_current_hash,
    client_request_id: args.client_request_id,
    parent_attempt_id: args.parent_attempt_id,
    regeneration_attempt: args.attempt,
    source: args.source,
    // A derived retry key is fresh, and the only parent a retry names is the attempt just rejected.
    lookups: { keyed: null, parent },
  }, found);
}

function decideOn(b: ProbeBasis, protocol: ProtocolVersion, args: Record<string, unknown>, operation: string) {
  const outcome = decide(commandOf(b, protocol, args, operation), b.state);
  if (outcome.kind !== 'decided' || outcome.events[0]?.type !== 'ProposalAccepted' || !outcome.state.exists) return null;
  return outcome.state.content;
}

/**
 * The check every offered correction passes: the catalog's admission for its operation, then the
 * decider on the current target, exactly as a submission would meet them. Nothing is written.
 */
export function nextActionProbe(b: ProbeBasis, request: { operation: string; args: Record<string, unknown> }): NextActionProbe {
  const buffers = new Map<number, string | null>();
  return {
    accepts(operation, args) {
      const spec = findOperation(operation);
      const protocol = protocolOf(operation, args);
      if (!spec || !protocol || admit(spec, args) !== null) return false;
      return decideOn(b, protocol, args, operation) !== null;
    },
    bufferBefore(index) {
      if (index === 0) return b.state.content;
      if (!buffers.has(index)) buffers.set(index, prefixBuffer(b, request, index));
      return buffers.get(index) ?? null;
    },
  };
}

/** The current text after the request's first `index` changes (null when they do not apply). */
function prefixBuffer(b: ProbeBasis, request: { operation: string; args: Record<string, unknown> }, index: number): string | null {
  const changes = changesOf(request.args);
  const protocol = protocolOf(request.operation, request.args);
  if (!changes || !protocol) return null;
  const args: Record<string, unknown> = { [changes.field]: changes.items.slice(0, index), expected_target_version: b.state.version };
  if ('intent' in request.args) args.intent = request.args.intent;
  // An observed prefix runs inside its observation, which needs both guards.
  if (request.operation === SUBMIT_OBSERVED) Object.assign(args, { observation_id: request.args.observation_id, expected_current_hash: b.state.current_hash });
  return decideOn(b, protocol, args, request.operation);
}
