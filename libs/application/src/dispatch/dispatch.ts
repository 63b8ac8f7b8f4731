import { admit } from '@palimpsest/protocol/admission';
import { findOperation, type OperationName } from '@palimpsest/protocol/catalog/catalog';
import { servedReadOnly, type OperationSpec } from '@palimpsest/protocol/catalog/operation-spec';
import type { Admitted, Params, Result } from '@palimpsest/protocol/catalog/operation-types';
import type { Outcome } from '@palimpsest/protocol/outcome';
import { withDropInAnswer } from '@palimpsest/core/policy/drop-in-answer';
import { withOneRetryable } from '@palimpsest/protocol/refusal-shape';
import { withinResultBytes } from '@palimpsest/protocol/result-budget';
import { READ_ONLY, type OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../app-context';
import { policyGate } from '../candidates/policy/policy-gate';
import { withMeantCall } from './admission-retry';
import { admissionEnvelope, isEnvelopeOperation } from '../candidates/shared/envelope';
import type { HandlerSession, OperationHandler, ProgressSink } from './operation-handler';
import { OPERATION_HANDLERS } from './operation-handlers';
import { withCallerClient } from '../shared/session-metadata';
import { isRelayedTool, routeToProject } from '../relay/route-to-project';

export interface DispatchOptions {
  /** Profile: a read-only session refuses every write operation. */
  readOnly?: boolean;
  /** Owner policy of the caller (MCP profile, API token): hides and refuses tools, gates checks, asks for approvals. */
  policy?: OwnerPolicy;
  /** Told how a long wait (an apply waiting for an approval) goes; the transport decides how to show it. */
  progress?: ProgressSink;
  /** Aborted when the caller cancels the call or goes away: a write waiting for an approval withdraws it. */
  signal?: AbortSignal;
  /** The client session's id, recorded with its edits and command runs. */
  correlationId?: string;
  /** The client's name (MCP clientInfo.name), recorded with its edits. */
  client?: string;
}

/**
 * A call from code: a catalog operation, its params as its schema types them, and its answer typed
 * field by field. A misspelled name, a param the operation does not take or a field its answer does not
 * have fails the type check (dispatch-types.unit.spec.ts).
 */
export async function dispatch<N extends OperationName>(ctx: AppContext, name: N, params: Params<N>, opts: DispatchOptions = {}): Promise<Result<N>> {
  // The handler table answers Result<N> (operation-handler.ts); on the way out admission and the gates add
  // only refusals of statuses every result schema lists, and the budget only AnswerNotes.
  return (await dispatchRequest(ctx, name, params, opts)) as Result<N>;
}

/**
 * A call off the wire (MCP, HTTP, the CLI): any name, any arguments. Catalog lookup → admission →
 * handler. The one path every transport uses; every refusal leaves it with one retryable (and a drop-in
 * tool's with its answer code), every answer within MAX_RESULT_BYTES as sent.
 */
export async function dispatchRequest(ctx: AppContext, name: string, args: unknown, opts: DispatchOptions = {}): Promise<Outcome> {
  return withinResultBytes(withOneRetryable(withDropInAnswer(name, await answer(ctx, name, args, opts))));
}

async function answer(ctx: AppContext, name: string, args: unknown, opts: DispatchOptions): Promise<Outcome> {
  const spec = findOperation(name);
  if (!spec) {
    return { status: 'invalid_argument', code: 'unknown_operation', failure_detail: `No operation named ${name}.` };
  }
  if (opts.readOnly && !servedReadOnly(spec)) {
    if (isEnvelopeOperation(spec.name)) return policyGate(READ_ONLY, spec) ?? readOnlyRefusal(name);
    return readOnlyRefusal(name);
  }
  const forbidden = opts.policy ? policyGate(opts.policy, spec) : null;
  if (forbidden) return forbidden;
  const refused = admit(spec, args ?? {});
  if (refused) return isEnvelopeOperation(spec.name) ? admissionEnvelope(refused) : withMeantCall(spec, args as Record<string, unknown>, refused);
  const session: HandlerSession = { profile: opts.readOnly ? 'read-only' : 'full', policy: opts.policy ?? null };
  if (opts.progress) session.progress = opts.progress;
  if (opts.signal) session.signal = opts.signal;
  if (opts.correlationId) session.correlationId = opts.correlationId;
  if (opts.client) session.client = opts.client;
  if (!isRelayedTool(spec.name)) return run(ctx, spec, args ?? {}, session);
  const route = await routeToProject(ctx, spec.name, (args ?? {}) as Record<string, unknown>, session);
  return 'answer' in route ? route.answer : run(ctx, spec, route.local, session);
}

function readOnlyRefusal(name: string): Outcome {
  return { status: 'invalid_argument', code: 'operation_not_permitted', answer: 'FORBIDDEN', tool: name, failure_detail: `${name} writes; this session runs the read-only profile. This is an answer: do not route around it.` };
}

/** Admission has checked `args` against the operation's schema: this is where they take its type. */
function run<N extends OperationName>(ctx: AppContext, spec: OperationSpec<N>, args: unknown, session: HandlerSession): Promise<Result<N>> {
  const handler: OperationHandler<N> = OPERATION_HANDLERS[spec.name];
  return withCallerClient(session.client, () => handler(ctx, args as Admitted<N>, session));
}
