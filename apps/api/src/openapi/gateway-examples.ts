import { ALLOW_ALL } from '@palimpsest/core/policy/owner-policy';
import type { IncomingMessage } from 'node:http';
import { Readable } from 'node:stream';
import type { AppContext } from '@palimpsest/application/app-context';
import { listApprovals } from '@palimpsest/application/candidates/approvals/approvals.handler';
import { rebuildProjections } from '@palimpsest/projections/rebuild/rebuild-projections';
import type { Db } from '@palimpsest/store/db';
import { DEFAULT_BODY_LIMIT } from '../config/api-config';
import { TokenVerifier, scopeRefusal } from '../auth/token-verifier';
import { ApiError, gatewayError, withTraceId } from '../errors/api-error';
import { AdmissionLimiter } from '../lifecycle/admission-limiter';
import { readJsonBody, unsupportedMediaType } from '../lifecycle/json-body';
import { replayAll } from '../operations/replay-all';
import { EXAMPLE_TRACE_ID, type ErrorExampleRun } from './example-scenario';

/**
 * The refusals the gateway makes itself (before or around an operation), each produced by the code
 * that really sends it, for the document's error examples: no token, a missing scope, a body that is
 * not JSON, saturation. The exception filter's answers (an unreachable database, an unexpected failure)
 * live in a file that loads Nest, which Jest cannot load (ES modules only), so those two are built here
 * with the filter's code and reason.
 */

const refused = async (run: () => unknown): Promise<ApiError> => {
  try {
    await run();
  } catch (error) {
    if (error instanceof ApiError) return error;
    throw error;
  }
  throw new Error('expected a refusal');
};

const asExample = (name: string, summary: string, error: ApiError): ErrorExampleRun => ({
  name,
  summary,
  status: error.httpStatus,
  body: withTraceId(error.body, EXAMPLE_TRACE_ID),
});

/** A request announcing a body over the gateway's default limit, as Node hands it over (already read). */
function oversizedRequest(): IncomingMessage {
  const headers = { 'content-type': 'application/json', 'content-length': String(DEFAULT_BODY_LIMIT + 1) };
  return Object.assign(Readable.from([]), { headers, complete: true }) as unknown as IncomingMessage;
}

export async function gatewayRefusals(): Promise<ErrorExampleRun[]> {
  const verifier = new TokenVerifier(null as unknown as Db, 0, () => undefined); // a missing header is refused before any lookup
  const limiter = new AdmissionLimiter({ maxConcurrency: 0, maxQueue: 0, queueTimeoutMs: 0 });
  const unreachable = gatewayError(503, 'unavailable', 'database_unavailable', 'The database is unreachable; resend the same request shortly.', {
    headers: { 'Retry-After': '2' },
  });
  const internal = gatewayError(500, 'internal', 'internal', 'An unexpected error occurred; resend the request once, then report it with its request id.');
  return [
    asExample('unauthenticated', 'No bearer token', await refused(() => verifier.verify(undefined))),
    asExample('permission_denied', 'The token lacks the route\'s scope', scopeRefusal({ token_id: 'tok_example', name: 'reader', scopes: ['read'], policy: ALLOW_ALL }, 'write')),
    asExample('request_too_large', 'A body over the request bound', await refused(() => readJsonBody(oversizedRequest(), DEFAULT_BODY_LIMIT))),
    asExample('unsupported_media_type', 'The body is not JSON', unsupportedMediaType()),
    asExample('saturated', 'Every slot busy, the queue full', await refused(() => limiter.acquire())),
    asExample('unavailable', 'The database is unreachable', unreachable),
    asExample('internal', 'An unexpected failure', internal),
  ];
}

/**
 * The operator routes' answers, run for real on the example run's store: replay every target, rebuild
 * the read models (as the projections controller does), list the approvals.
 */
export async function operatorAnswers(ctx: AppContext): Promise<Record<string, unknown>> {
  const replay = await replayAll(ctx, { limit: 3, after: 0 });
  const report = await rebuildProjections(ctx.db);
  const approvals = await listApprovals(ctx.db, { status: 'all', limit: 50 });
  return {
    replay_all: replay,
    projections_rebuild: { status: report.equal ? 'ok' : 'failed', ...report },
    approvals_list: { status: 'ok', approvals },
  };
}
