import { createServer, type Server } from 'node:net';
import { orderedKeys, type LeaseKey, type LeaseProvider, type WaitingLeaseProvider, type WorkspaceLease } from '@palimpsest/core/workspace/lease.port';

export { orderedKeys, type LeaseKey, type LeaseProvider, type WaitingLeaseProvider, type WorkspaceLease } from '@palimpsest/core/workspace/lease.port';

/** PALIMPSEST_LEASE_WAIT_MS: how long a publication waits for its directories' lease (default 10 s; 0 refuses at once). */
export function leaseWaitFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env.PALIMPSEST_LEASE_WAIT_MS;
  if (raw === undefined || raw === '') return DEFAULT_LEASE_WAIT_MS;
  const ms = Number(raw);
  if (!Number.isInteger(ms) || ms < 0) throw new Error(`PALIMPSEST_LEASE_WAIT_MS must be a whole number of milliseconds (0 or more); got ${JSON.stringify(raw)}.`);
  return ms;
}

export const DEFAULT_LEASE_WAIT_MS = 10_000;

/** How often a waiter looks again while the holder is another process (whose release this one cannot hear). */
const POLL_MS = 20;

interface Waiter {
  names: string[];
  wake: () => void;
}

/** The waiters of this process, oldest first: one queue whatever provider each came through, as heldHere is one set. */
const queue: Waiter[] = [];
const wakeAll = () => {
  for (const w of queue) w.wake();
};

/**
 * Writers of one directory take turns instead of being refused: `acquire` queues the caller, and a waiter
 * tries `inner` only when no earlier waiter of this process wants any of its keys (first come, first
 * served per key; waiters for other directories pass freely). A release here wakes the queue at once; a
 * holder in another process is looked for again every POLL_MS, so across processes the order is whoever
 * looks first. Past `waitMs` the waiter leaves the queue and gets null.
 */
export function waitingLeases(inner: LeaseProvider, waitMs: number): WaitingLeaseProvider {
  const isFirst = (w: Waiter) => {
    for (const earlier of queue) {
      if (earlier === w) return true;
      if (earlier.names.some((n) => w.names.includes(n))) return false;
    }
    return true;
  };
  const released = (lease: WorkspaceLease): WorkspaceLease => {
    let done: Promise<void> | undefined;
    return { keys: lease.keys, release: () => (done ??= lease.release().finally(wakeAll)) };
  };
  const provider: WaitingLeaseProvider = {
    waitMs,
    tryAcquire: (keys) => inner.tryAcquire(keys),
    async acquire(keys) {
      const deadline = Date.now() + waitMs;
      let signal: () => void = () => undefined;
      const waiter: Waiter = { names: orderedKeys(keys).map(keyName), wake: () => signal() };
      queue.push(waiter);
      try {
        for (;;) {
          if (isFirst(waiter)) {
            // Through the provider object, so a test that wraps tryAcquire sees every attempt.
            const lease = await provider.tryAcquire(keys);
            if (lease) return released(lease);
          }
          const left = deadline - Date.now();
          if (left <= 0) return null;
          await new Promise<void>((resolve) => {
            const timer = setTimeout(resolve, Math.min(left, POLL_MS));
            signal = () => {
              clearTimeout(timer);
              resolve();
            };
          });
        }
      } finally {
        queue.splice(queue.indexOf(waiter), 1);
        wakeAll();
      }
    },
  };
  return provider;
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
