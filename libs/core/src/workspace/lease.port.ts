/**
 * An exclusive lease on a physical destination directory (seed 003: "an advisory exclusive lease on the
 * pinned physical destination directory"), keyed by the directory's identity, so that one directory is
 * one lease whatever path, root, alias or target reaches it. Different directories never conflict.
 */

export interface LeaseKey {
  dev: string;
  ino: string;
}

export interface WorkspaceLease {
  readonly keys: LeaseKey[];
  /** Idempotent. */
  release(): Promise<void>;
}

export interface LeaseProvider {
  /** All the keys or none: null when any of them is held by someone else (busy). */
  tryAcquire(keys: LeaseKey[]): Promise<WorkspaceLease | null>;
}

/** A provider whose callers can also wait their turn. */
export interface WaitingLeaseProvider extends LeaseProvider {
  /** How long `acquire` waits, in ms. */
  readonly waitMs: number;
  /** All the keys, once every earlier waiter of this process for any of them has had its turn; null when `waitMs` passed first (busy). */
  acquire(keys: LeaseKey[]): Promise<WorkspaceLease | null>;
}

/** Sorted and without repeats: every acquirer takes keys in one order. */
export function orderedKeys(keys: LeaseKey[]): LeaseKey[] {
  const byName = new Map(keys.map((k) => [keyName(k), k]));
  return [...byName.keys()].sort().map((name) => byName.get(name)!);
}

const keyName = (key: LeaseKey): string => `${key.dev}-${key.ino}`;
