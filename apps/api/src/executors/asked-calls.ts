/**
 * The request ids sent to each executor device and not yet answered, across its connections. A link that
 * drops and comes back is a new connection, and a call that was running on the executor meanwhile is answered
 * on it: that result is late, not hostile. A result for an id never asked of this device still is.
 * Bounded: past `max` ids the oldest are forgotten (their results then close the connection like forgeries).
 */
export class AskedCalls {
  private readonly deviceOf = new Map<string, string>();

  constructor(private readonly max = 10_000) {}

  add(requestId: string, deviceId: string): void {
    this.deviceOf.delete(requestId);
    this.deviceOf.set(requestId, deviceId);
    if (this.deviceOf.size > this.max) this.deviceOf.delete(this.deviceOf.keys().next().value!);
  }

  /** Whether `requestId` was asked of `deviceId` on any of its connections; it is forgotten either way. */
  take(requestId: string, deviceId: string): boolean {
    const asked = this.deviceOf.get(requestId) === deviceId;
    if (asked) this.deviceOf.delete(requestId);
    return asked;
  }
}
