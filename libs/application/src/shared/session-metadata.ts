import { AsyncLocalStorage } from 'node:async_hooks';

/** The client a call runs for (MCP clientInfo.name), set by dispatch for the call's whole run. */
const callerClient = new AsyncLocalStorage<string>();

/** Runs `fn` as a call of `client` (when known): the metadata its events are written with names it. */
export function withCallerClient<T>(client: string | undefined, fn: () => T): T {
  return client ? callerClient.run(client, fn) : fn();
}

/** `{ client }` when the call runs for a known client, else nothing: for metadata built beside sessionMetadata (the file tools'). */
export function callerClientMetadata(): { client?: string } {
  const client = callerClient.getStore();
  return client ? { client } : {};
}

/** A use case's input as the caller sent it, for a next action that repeats it: the session is the transport's, not an argument. */
export function withoutSession<T extends { session_id?: string | null }>(input: T): Omit<T, 'session_id'> {
  const args = { ...input };
  delete args.session_id;
  return args;
}

/**
 * What an event carries beside its data about who asked: the command, and when the caller has a session
 * (its transport's correlation id) the tool it called and that id, which the session audit reads
 * (palimpsest_session_activity); and the client's name when the call came from a known client (the git
 * reactor's Assisted-by). Events of a caller without a session carry the command alone.
 */
export function sessionMetadata(base: Record<string, unknown> & { command: string }, tool: string, sessionId: string | null | undefined): Record<string, unknown> {
  const withClient = { ...base, ...callerClientMetadata() };
  return sessionId ? { ...withClient, tool, correlation_id: sessionId } : withClient;
}
