import { Server } from '@modelcontextprotocol/sdk/server/index.js';
import {
  CallToolRequestSchema,
  ListToolsRequestSchema,
  type CallToolResult,
} from '@modelcontextprotocol/sdk/types.js';
import type { AppContext } from '@palimpsest/application/app-context';
import { dispatch } from '@palimpsest/application/dispatch/dispatch';
import { hasLoneSurrogate } from '@palimpsest/core/text/code-points';
import { isCallFailure, type Outcome } from '@palimpsest/protocol/outcome';
import { asciiLine } from './ascii-stdio-transport';
import { presentResult, type ResponseMode } from './response-mode';
import { listTools, type Profile } from './tool-list';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';

export interface McpServerOptions {
  profile: Profile;
  /** The profile's owner policy: which tools are listed and callable, command checks, approvals. */
  policy?: OwnerPolicy;
  mode: ResponseMode;
  version: string;
}

/**
 * The result as literal JSON text plus structuredContent. Text that cannot be strict UTF-8 (a lone
 * surrogate) falls back to ASCII escapes for that one result; the parsed value is the same.
 */
export function toolResult(result: Outcome): CallToolResult {
  const literal = JSON.stringify(result);
  const text = hasLoneSurrogate(literal) ? asciiLine(result).trimEnd() : literal;
  return {
    content: [{ type: 'text', text }],
    structuredContent: result,
    isError: isCallFailure(result.status),
  };
}

export function createMcpServer(ctx: AppContext, opts: McpServerOptions): Server {
  const server = new Server(
    { name: 'palimpsest', version: opts.version },
    {
      capabilities: { tools: {} },
      instructions:
        'Read a target (palimpsest_read_target / read_lines / find_occurrences), then propose a guarded transaction with the version you read. A rejection is recorded and its diagnostic says how to succeed next time.',
    },
  );
  const tools = listTools(opts.profile, opts.mode, opts.policy);
  server.setRequestHandler(ListToolsRequestSchema, async () => ({ tools: structuredClone(tools) }));
  server.setRequestHandler(CallToolRequestSchema, async (request) => {
    const { name, arguments: args } = request.params;
    const result = await dispatch(ctx, name, args ?? {}, { readOnly: opts.profile === 'read-only', policy: opts.policy });
    return toolResult(presentResult(name, result, opts.mode));
  });
  return server;
}
