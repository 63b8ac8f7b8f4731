import type { OperationName } from '@palimpsest/protocol/catalog/catalog';
import type { Admitted, Result } from '@palimpsest/protocol/catalog/operation-types';
import type { OwnerPolicy } from '@palimpsest/core/policy/owner-policy';
import type { AppContext } from '../app-context';

/** How far a long wait has come, for a transport that can tell its client (MCP notifications/progress). */
export interface ProgressUpdate {
  /** Milliseconds waited so far: grows with every report. */
  elapsed_ms: number;
  /** The most the wait can last, in milliseconds. */
  total_ms: number;
  message: string;
}

/** A caller that wants to hear about long waits: reported every `everyMs` while one lasts. */
export interface ProgressSink {
  everyMs: number;
  report(update: ProgressUpdate): void;
}

export interface HandlerSession {
  profile: 'full' | 'read-only';
  /** The caller's owner policy (MCP profile or API token), when one is in force. */
  policy?: OwnerPolicy | null;
  /** Absent: nobody listens, nothing is reported. */
  progress?: ProgressSink;
  /** The client session's id (an MCP connection): the edits and command runs of one session record it, so an audit reads them together. */
  correlationId?: string;
  /** The client's name (MCP clientInfo.name): every event the call writes records it (session-metadata.ts). */
  client?: string;
  /** Aborted when the caller cancels the call (MCP notifications/cancelled): a write not yet made is not made. */
  signal?: AbortSignal;
}

/** What a call that may wait (for an operator's approval) is told by its caller. */
export type CallerWait = Pick<HandlerSession, 'progress' | 'signal' | 'correlationId'>;

/** Operation N's handler: its admitted arguments in, its result out. */
export type OperationHandler<N extends OperationName> = (ctx: AppContext, args: Admitted<N>, session: HandlerSession) => Promise<Result<N>>;
