export interface Clock {
  /** ISO-8601 UTC timestamp. */
  now(): string;
}

export const systemClock: Clock = { now: () => new Date().toISOString() };
