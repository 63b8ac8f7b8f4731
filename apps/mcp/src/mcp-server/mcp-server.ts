import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
  type ProgressToken,
  type ServerNotification,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '@palimpsest/application/app-context';
import { dispatchRequest } from '@palimpsest/application/dispatch/dispatch';
import type { ProgressSink } from '@palimpsest/application/dispatch/operation-handler';
import { hasLoneSurrogate } from '@palimpsest/core/text/code-points';
import { isRefusal } from '@palimpsest/protocol/outcome';
import { asciiLine } from './ascii-stdio-transport';
import { DEFAULT_PROGRESS_MS } from './progress-interval';
import { presentResult, type PresentedAnswer, type ResponseMode } from './response-mode';
import { instructionsFor } from './instructions';
import { listTools, type Profile } from './tool-list';
import { registerProtocolResources } from './protocol-resources';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import { CORRELATION_ID_META } from '@palimpsest/protocol/catalog/operations/audit.operations';

export interface McpServerOptions {
  profile: Profile;
  /** The profile's owner policy: which tools are listed and callable, command checks, approvals. */
  policy?: OwnerPolicy;
  mode: ResponseMode;
  version: string;
  /** Milliseconds between progress notifications while a call waits (the root reads PALIMPSEST_MCP_PROGRESS_MS; default 5 s). */
  progressMs?: number;
  /** The client session's id, recorded with its edits and command runs (default: a fresh one per server, i.e. per session). */
  correlationId?: string;
  /** Executors can connect (a gateway): the project tools and the `project` argument are listed. */
  executors?: boolean;
}

/**
 * The result as literal JSON text plus structuredContent. Text that cannot be strict UTF-8 (a lone
 * surrogate) falls back to ASCII escapes for that one result; the parsed value is the same.
 */
export function toolResult(result: PresentedAnswer): CallToolResult {
  const literal = JSON.stringify(result);
  const text = hasLoneSurrogate(literal) ? asciiLine(result).trimEnd() : literal;
  return {
    content: [{ type: 'text', text }],
    structuredContent: result,
    isError: isRefusal(result.status),
  };
}

type SendNotification = (notification: ServerNotification) => Promise<void>;

/** The request's progress token, told how a long wait goes (notifications/progress, on the request's own stream). */
function progressSink(progressToken: ProgressToken, everyMs: number, send: SendNotification): ProgressSink {
  return {
    everyMs,
    report: ({ elapsed_ms, total_ms, message }) => {
      // A notification that cannot be delivered (the client went away) changes nothing about the call.
      send({ method: 'notifications/progress', params: { progressToken, progress: elapsed_ms, total: total_ms, message } }).catch(() => undefined);
    },
  };
}

export function createMcpServer(ctx: AppContext, opts: McpServerOptions): Server {
  const tools = listTools(opts.profile, opts.mode, opts.policy, opts.executors ?? false);
  const server = new Server(
    { name: 'palimpsest', version: opts.version },
    { capabilities: { tools: {}, resources: {} }, instructions: instructionsFor(tools.map((t) => t.name), opts.policy) },
  );
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: structuredClone(tools) }));
  registerProtocolResources(server, opts.profile, opts.policy);
  const progressMs = opts.progressMs ?? DEFAULT_PROGRESS_MS;
  // One server per client session: its edits and command runs share this id on the record, and every
  // tool result tells it in _meta (palimpsest/correlation_id), for palimpsest_session_activity.
  const correlationId = opts.correlationId ?? ctx.ids.next();
  server.setRequestHandler(CallToolRequestSchema, async (request, extra) => {
    const { name, arguments: args } = request.params;
    const token = request.params._meta?.progressToken;
    const progress = token === undefined ? undefined : progressSink(token, progressMs, extra.sendNotification);
    // extra.signal aborts on notifications/cancelled and when the connection closes.
    // The client's name from its initialize request (clientInfo.name), recorded with its edits.
    const client = server.getClientVersion()?.name;
    const result = await dispatchRequest(ctx, name, args ?? {}, { readOnly: opts.profile === 'read-only', policy: opts.policy, progress, signal: extra.signal, correlationId, ...(client ? { client } : {}) });
    return { ...toolResult(presentResult(name, result, opts.mode)), _meta: { [CORRELATION_ID_META]: correlationId } };
  });
  return server;
}
