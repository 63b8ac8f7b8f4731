import { CodePointIndex } from '../text/code-points';
import { readProposalBody } from './parse-proposal';
import type { ProposalInput } from './parse-proposal';
import { shapeFailure } from './field-checks';
import { applyReplacement } from './replacement';
import { checkScopeEvidence, evidenceFailure, OBSERVED_PROFILE, readLink } from './observed-scope';
import { applyObservedBatch, OBSERVED_BATCH_PROFILE } from './observed-batch';
import { runSequential, type ApplyContext } from './run-sequential';
import { PROTOCOL, RUNTIME } from './transaction.types';
import type { ProtocolVersion, RecordedProposal, TxFailure, TxResult } from './transaction.types';

export type { RecordedProposal } from './transaction.types';

export type { ApplyContext } from './run-sequential';


/** Immutable runtime profiles: the only (protocol, runtime) pairs this engine will apply. */
const SUPPORTED_PROFILES: ReadonlyMap<string, ProtocolVersion> = new Map([
  [`${PROTOCOL.tx1}|${RUNTIME.typedMatch}`, PROTOCOL.tx1],
  [`${PROTOCOL.tx2}|${RUNTIME.spanOps}`, PROTOCOL.tx2],
  [`${PROTOCOL.tx2}|${RUNTIME.spanContext}`, PROTOCOL.tx2],
  [`${PROTOCOL.tx3}|${RUNTIME.replacement}`, PROTOCOL.tx3],
]);

const RECORD_FIELDS = new Set(['protocol_version', 'intent', 'edits', 'operations', 'replacement']);

/**
 * Apply a recorded proposal to canonical LF text. Live decisions and replay both come through here,
 * dispatching on the recorded (protocol, runtime) pair. Changes apply sequentially: each sees the
 * buffer left by the ones before it, and the first failure rejects the whole transaction.
 */
export function applyProposal(p: RecordedProposal, buffer: string, ctx?: ApplyContext): TxResult {
  if (p.runtime_version === OBSERVED_PROFILE.runtime) return applyObserved(p, buffer, ctx);
  if (p.runtime_version === OBSERVED_BATCH_PROFILE.runtime) return applyObservedBatch(p, buffer, ctx);
  const protocol = SUPPORTED_PROFILES.get(`${p.protocol_version}|${p.runtime_version}`);
  if (protocol === undefined || (p.record.protocol_version ?? protocol) !== protocol) {
    return reject(unsupportedProfile(p, 'This protocol and runtime profile pair is not supported.'), buffer);
  }
  const unknown = Object.keys(p.record).find((key) => !RECORD_FIELDS.has(key) && p.record[key] !== undefined);
  if (unknown !== undefined) {
    return reject(shapeFailure(protocol, 'unknown_field', unknown, `The record field ${unknown} is not known.`), buffer);
  }
  const read = readProposalBody(protocol, p.record as ProposalInput);
  if (!read.ok) return reject(read.failure, buffer);
  const { body } = read;
  if (body.protocol === PROTOCOL.tx3) return applyReplacement(buffer, body.replacement);
  if (body.protocol === PROTOCOL.tx2 && body.spanContext && p.runtime_version === RUNTIME.spanOps) {
    const detail = `${RUNTIME.spanOps} does not accept expected_before or expected_after; such records use ${RUNTIME.spanContext}.`;
    return reject(unsupportedProfile(p, detail), buffer);
  }
  return runSequential(protocol, body.changes, buffer, ctx);
}

const OBSERVED_FIELDS = new Set(['protocol_version', 'intent', 'operations', 'observation']);

/**
 * An observed record: tx/2 operations restricted to the recorded scope, applied only when the scope it
 * links to is still exactly the buffer's (bounds and hash). Replay comes through here too: no parser runs.
 */
function applyObserved(p: RecordedProposal, buffer: string, ctx?: ApplyContext): TxResult {
  if (p.protocol_version !== OBSERVED_PROFILE.protocol || (p.record.protocol_version ?? PROTOCOL.tx2) !== PROTOCOL.tx2) {
    return reject(unsupportedProfile(p, 'This protocol and runtime profile pair is not supported.'), buffer);
  }
  const unknown = Object.keys(p.record).find((key) => !OBSERVED_FIELDS.has(key) && p.record[key] !== undefined);
  if (unknown !== undefined) return reject(evidenceFailure(`the record field ${unknown} is not known`), buffer);
  const link = readLink(p.record.observation);
  if (!link) return reject(evidenceFailure('the record carries no complete observation link'), buffer);
  const bad = checkScopeEvidence(link, new CodePointIndex(buffer));
  if (bad) return reject(evidenceFailure(bad), buffer);
  const read = readProposalBody(PROTOCOL.tx2, { intent: p.record.intent, operations: p.record.operations });
  if (!read.ok) return reject(read.failure, buffer);
  if (read.body.protocol !== PROTOCOL.tx2) throw new Error('a tx/2 body was read as another format');
  return runSequential(PROTOCOL.tx2, read.body.changes, buffer, ctx, { start: link.scope_start, end: link.scope_end });
}

function unsupportedProfile(p: RecordedProposal, detail: string): TxFailure {
  const failure = shapeFailure(p.protocol_version, 'unsupported_profile', 'runtime_version', detail);
  failure.diagnostic.protocol_version = p.protocol_version;
  failure.diagnostic.runtime_version = p.runtime_version;
  return failure;
}

function reject(failure: TxFailure, buffer: string): TxResult {
  return { ok: false, ...failure, failing_buffer: buffer };
}
