import type { Readable, Writable } from 'node:stream';
import { FrameSplitter } from '@palimpsest/protocol/codec/frame-splitter';
import { decodeFrame } from '@palimpsest/protocol/codec/json-rpc-request';
import { MAX_FRAME_BYTES, MAX_RESPONSE_BYTES } from '@palimpsest/protocol/codec/json-rpc.constants';
import {
  errorLine,
  fitResponse,
  internalError,
  outcomeLine,
  oversizedFrameError,
  paramsShapeError,
  unavailableMethodError,
  type UnavailableReason,
} from '@palimpsest/protocol/codec/json-rpc-response';
import type { RequestId } from '@palimpsest/protocol/codec/request-id';

/**
 * JSON-RPC 2.0 over newline-delimited JSON on a pair of streams.
 *
 * - Requests are handled one at a time, in arrival order: the next frame is not decoded before the
 *   previous response has been written and flushed. The input is read with backpressure, so at most
 *   one chunk plus one partial frame (≤ MAX_FRAME_BYTES) is held.
 * - Empty frames are ignored. Notifications (valid envelopes without id) get no answer and do no
 *   work: they are not dispatched at all, whatever their method or params.
 * - Frames that fail the codec are answered (-32700, or -32600 for envelope violations) and the
 *   session goes on — except an oversized frame: it is drained to its LF without being kept, one
 *   -32700 (id null) is written, and the session stops (end reason `oversized_request`).
 * - A response over MAX_RESPONSE_BYTES is replaced by -32001 for the same id; the session stops
 *   (`oversized_response`).
 * - EOF ends the session (`eof`) once every request before it is answered; a final frame without
 *   LF is handled like any other. If the output fails (reader gone), the session stops (`output_closed`).
 */
export type MethodAvailability = 'available' | UnavailableReason;

export interface JsonLinesSessionOptions {
  input: Readable;
  output: Writable;
  /** Whether this session serves `method` (catalog membership and profile). */
  availability(method: string): MethodAvailability;
  /** Runs an available method with object params; resolves to the operation's result object. */
  call(method: string, params: Record<string, unknown>): Promise<Record<string, unknown>>;
  /** Told about a call that threw (answered -32603); e.g. log it to stderr. */
  onInternalError?(method: string, err: unknown): void;
  maxFrameBytes?: number;
  maxResponseBytes?: number;
}

export type SessionEndReason = 'eof' | 'oversized_request' | 'oversized_response' | 'output_closed';

/** Process exit codes for `palimpsest serve`: 0 after EOF; 65 (EX_DATAERR) when a size limit stopped it. */
export const SESSION_EXIT_CODES: Readonly<Record<SessionEndReason, number>> = {
  eof: 0,
  oversized_request: 65,
  oversized_response: 65,
  output_closed: 74,
};

export interface SessionEnd {
  reason: SessionEndReason;
  requests: number;
  exitCode: number;
}

class OutputClosed extends Error {}

export async function runJsonLinesSession(opts: JsonLinesSessionOptions): Promise<SessionEnd> {
  const splitter = new FrameSplitter(opts.maxFrameBytes ?? MAX_FRAME_BYTES);
  const responseLimit = opts.maxResponseBytes ?? MAX_RESPONSE_BYTES;
  let requests = 0;
  let outputError: unknown = null;
  const onOutputError = (err: unknown) => (outputError = err);
  opts.output.on('error', onOutputError);

  const write = (line: string): Promise<void> =>
    new Promise((resolve, reject) => {
      if (outputError !== null || opts.output.destroyed || opts.output.writableEnded) return reject(new OutputClosed());
      opts.output.write(`${line}\n`, (err) => (err ? reject(new OutputClosed()) : resolve()));
    });

  /** Writes one response for `id`; false when the size limit replaced it and the session must stop. */
  const respond = async (id: RequestId | null, line: string): Promise<boolean> => {
    const fitted = fitResponse(id, line, responseLimit);
    await write(fitted.line);
    return !fitted.tooLarge;
  };

  const answerRequest = async (id: RequestId, method: string, params: unknown): Promise<boolean> => {
    requests++;
    const availability = opts.availability(method);
    if (availability !== 'available') return respond(id, errorLine(id, unavailableMethodError(method, availability)));
    const shape = paramsShapeError(method, params);
    if (shape) return respond(id, errorLine(id, shape));
    let line: string;
    try {
      const result = await opts.call(method, (params ?? {}) as Record<string, unknown>);
      line = outcomeLine(id, result);
    } catch (err) {
      opts.onInternalError?.(method, err);
      line = errorLine(id, internalError());
    }
    return respond(id, line);
  };

  /** Handles one frame; the reason to stop, or null to go on. */
  const handleFrame = async (bytes: Uint8Array): Promise<SessionEndReason | null> => {
    const decoded = decodeFrame(bytes);
    switch (decoded.kind) {
      case 'empty':
      case 'notification':
        return null;
      case 'invalid':
        return (await respond(decoded.id, errorLine(decoded.id, decoded.error))) ? null : 'oversized_response';
      case 'request':
        return (await answerRequest(decoded.id, decoded.method, decoded.params)) ? null : 'oversized_response';
    }
  };

  const handleEvents = async (events: ReturnType<FrameSplitter['push']>): Promise<SessionEndReason | null> => {
    for (const event of events) {
      if (event.kind === 'oversized') {
        await write(errorLine(null, oversizedFrameError(event.limit)));
        return 'oversized_request';
      }
      const stop = await handleFrame(event.bytes);
      if (stop) return stop;
    }
    return null;
  };

  let reason: SessionEndReason = 'eof';
  try {
    let stopped: SessionEndReason | null = null;
    for await (const chunk of opts.input) {
      const bytes = typeof chunk === 'string' ? Buffer.from(chunk, 'utf8') : (chunk as Uint8Array);
      stopped = await handleEvents(splitter.push(bytes));
      if (stopped) break;
    }
    if (!stopped) stopped = await handleEvents(splitter.end());
    reason = stopped ?? 'eof';
  } catch (err) {
    if (!(err instanceof OutputClosed)) throw err;
    reason = 'output_closed';
  } finally {
    opts.output.off('error', onOutputError);
  }
  if (reason !== 'eof' && !opts.input.destroyed) opts.input.destroy();
  return { reason, requests, exitCode: SESSION_EXIT_CODES[reason] };
}
