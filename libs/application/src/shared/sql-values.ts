/** Both drivers return timestamptz as Date; the wire speaks ISO-8601 UTC. */
export function toIso(value: Date): string;
export function toIso(value: unknown): string | null;
export function toIso(value: unknown): string | null {
  if (value === null || value === undefined) return null;
  if (value instanceof Date) return value.toISOString();
  return new Date(String(value)).toISOString();
}

export const HISTORY_PAGE = { defaultLimit: 50, maxLimit: 200 } as const;

export function pageLimit(limit: number | null | undefined): number {
  return Math.min(limit ?? HISTORY_PAGE.defaultLimit, HISTORY_PAGE.maxLimit);
}
