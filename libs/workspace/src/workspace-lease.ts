import { createServer, type Server } from 'node:net';

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

/** Sorted and without repeats: every acquirer takes keys in one order. */
export function orderedKeys(keys: LeaseKey[]): LeaseKey[] {
  const byName = new Map(keys.map((k) => [keyName(k), k]));
  return [...byName.keys()].sort().map((name) => byName.get(name)!);
}

const keyName = (key: LeaseKey): string => `${key.dev}-${key.ino}`;

/** Keys held by this process (two requests of one process); shared by every local provider in it. */
const heldHere = new Set<string>();

/**
 * The machine's lease: an in-process set, and for other processes one Linux abstract-namespace Unix socket
 * bound per key (`\0palimpsest-workspace-lease-<dev>-<ino>`; a second bind is EADDRINUSE, i.e. busy). An
 * abstract socket has no file to go stale: the kernel drops it when its holder exits, SIGKILL included.
 * Only processes that share the network namespace see one another's leases (one container, one host).
 */
export function localLeaseProvider(): LeaseProvider {
  return {
    async tryAcquire(keys) {
      const ordered = orderedKeys(keys);
      const held: Array<() => Promise<void>> = [];
      const releaseAll = async () => {
        for (const release of held.reverse()) await release();
      };
      try {
        for (const key of ordered) {
          const release = await acquireOne(keyName(key));
          if (!release) {
            await releaseAll();
            return null;
          }
          held.push(release);
        }
      } catch (e) {
        await releaseAll();
        throw e;
      }
      let released: Promise<void> | undefined;
      return { keys: ordered, release: () => (released ??= releaseAll()) };
    },
  };
}

async function acquireOne(name: string): Promise<(() => Promise<void>) | null> {
  if (heldHere.has(name)) return null;
  heldHere.add(name);
  let server: Server;
  try {
    server = await bind(`\0palimpsest-workspace-lease-${name}`);
  } catch (e) {
    heldHere.delete(name);
    if ((e as NodeJS.ErrnoException).code === 'EADDRINUSE') return null;
    throw e;
  }
  return async () => {
    await new Promise<void>((resolve) => server.close(() => resolve()));
    heldHere.delete(name);
  };
}

function bind(address: string): Promise<Server> {
  return new Promise((resolve, reject) => {
    const server = createServer((socket) => socket.destroy());
    server.once('error', reject);
    server.listen(address, () => {
      server.removeListener('error', reject);
      server.unref(); // a held lease does not keep the process alive
      resolve(server);
    });
  });
}
