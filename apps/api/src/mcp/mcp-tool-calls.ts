import type { Transport } from '@modelcontextprotocol/sdk/shared/transport.js';
import { isJSONRPCErrorResponse, isJSONRPCRequest, isJSONRPCResultResponse, type JSONRPCMessage, type RequestId } from '@modelcontextprotocol/sdk/types.js';
import { ApiError } from '../errors/api-error';

/** What the gateway does around every tools/call, whatever the transport's session. */
export interface ToolCallObserver {
  /** Resolves with a release once the call may run (an operation slot, as for the HTTP routes); rejects when saturated. */
  admit(): Promise<() => void>;
  /** The call's answer went out (its structuredContent, or null for a JSON-RPC error). */
  done(tool: string, result: Record<string, unknown> | null, seconds: number): void;
}

/** The JSON-RPC error a refused call answers with: the gateway's refusal (429 saturated) in `data`. */
export function refusalMessage(id: RequestId, error: unknown): JSONRPCMessage {
  const body = error instanceof ApiError ? error.body : undefined;
  return { jsonrpc: '2.0', id, error: { code: -32000, message: error instanceof Error ? error.message : String(error), ...(body ? { data: body } : {}) } };
}

/**
 * Wraps a connected transport so each tools/call takes an operation slot before it runs and is
 * counted in the operation metrics when its answer is sent. The server's own handlers stay as they
 * are (createMcpServer, shared with stdio).
 */
export function observeToolCalls(transport: Transport, observer: ToolCallObserver): void {
  const calls = new Map<RequestId, { tool: string; started: number; release: () => void }>();
  const deliver = transport.onmessage!;
  transport.onmessage = (message, extra) => {
    if (!isJSONRPCRequest(message) || message.method !== 'tools/call') return deliver(message, extra);
    const tool = String((message.params as { name?: unknown } | undefined)?.name ?? '');
    observer.admit().then(
      (release) => {
        calls.set(message.id, { tool, started: performance.now(), release });
        deliver(message, extra);
      },
      (error: unknown) => void transport.send(refusalMessage(message.id, error), { relatedRequestId: message.id }).catch(() => undefined),
    );
  };
  const send = transport.send.bind(transport);
  transport.send = (message, options) => {
    const id = isJSONRPCResultResponse(message) || isJSONRPCErrorResponse(message) ? message.id : undefined;
    const call = id === undefined ? undefined : calls.get(id);
    if (call) {
      calls.delete(id!);
      call.release();
      const result = 'result' in message ? ((message.result.structuredContent as Record<string, unknown> | undefined) ?? null) : null;
      observer.done(call.tool, result, (performance.now() - call.started) / 1000);
    }
    return send(message, options);
  };
  const closed = transport.onclose;
  transport.onclose = () => {
    for (const call of calls.values()) call.release(); // their answers can no longer be sent
    calls.clear();
    closed?.();
  };
}
