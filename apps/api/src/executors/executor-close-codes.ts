/**
 * Why the gateway closes an executor's WebSocket: the close code, and a reason that starts with the
 * name below (then ": " and the detail). Codes 4000-4999 are the application's (RFC 6455, 7.4.2);
 * the gateway also uses 1001 (it is stopping: a `shutdown` message goes first) and ws's own 1009
 * (a frame over EXECUTOR_MAX_MESSAGE_BYTES, refused before it is buffered) and 1007 (text that is not UTF-8).
 */
export const EXECUTOR_CLOSE = {
  /** Not JSON, not what the schema allows, or a binary frame. */
  invalid_message: 4400,
  /** The token was revoked (or deleted) while connected. */
  token_revoked: 4401,
  /** A connection of the same device, with the same token, said hello since: the newer one stays. */
  replaced: 4402,
  /** The hello's deviceId is connected already under another token. */
  device_in_use: 4403,
  /** Nothing received for longer than the heartbeat timeout (or no hello within it). */
  heartbeat_timeout: 4408,
  /** A message out of order: anything before hello, a second hello, a tool.result or approval.answer for nothing asked. */
  out_of_order: 4409,
  /** A hello naming the same project id or slug twice, or one another device's executor holds online. */
  invalid_hello: 4422,
  /** A hello in a protocol version this gateway does not speak. */
  unsupported_protocol_version: 4426,
} as const;
export type ExecutorCloseName = keyof typeof EXECUTOR_CLOSE;

/** RFC 6455 bounds a close reason to 123 bytes of UTF-8. */
export function closeReason(name: string, detail?: string): string {
  const full = detail ? `${name}: ${detail}` : name;
  let reason = full;
  while (Buffer.byteLength(reason, 'utf8') > 123) reason = reason.slice(0, -1);
  return reason;
}
