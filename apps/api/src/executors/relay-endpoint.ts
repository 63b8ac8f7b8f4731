import type { ToolCallMessage, ToolResultMessage } from '@palimpsest/protocol/executor/executor-messages';

/** The link to an executor dropped before the call's answer came. */
export class LinkLost extends Error {}

/** The call's deadline passed with the link up and no answer (a cancel was sent). */
export class DeadlinePassed extends Error {}

/** One executor connection as the relay uses it: send a tool.call and wait for its tool.result. */
export interface RelayEndpoint {
  readonly gone: boolean;
  /** Resolves with the tool.result; rejects with LinkLost when the connection ends first, DeadlinePassed at the deadline. */
  send(message: ToolCallMessage, deadline: number, signal?: AbortSignal): Promise<ToolResultMessage>;
}
