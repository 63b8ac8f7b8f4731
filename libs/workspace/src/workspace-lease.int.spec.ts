import type { ChildProcess } from 'node:child_process';
import { randomBytes } from 'node:crypto';
import { mkdirSync, mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { openDestination } from './workspace-destination';
import { leaseWaitFromEnv, localLeaseProvider, waitingLeases, type LeaseKey, type WorkspaceLease } from './workspace-lease';
import { openWorkspaceRoot } from './workspace-root';
import { ended, printed, spawnNode } from './test-support/spawn-node';

const MODULE = join(__dirname, 'workspace-lease.ts');

/** A second process: takes the lease on the keys in argv, says 'held' or 'busy', and (held) waits to be killed. */
const HOLDER = `
const { localLeaseProvider } = require(${JSON.stringify(MODULE)});
const keys = JSON.parse(process.argv[1]);
localLeaseProvider().tryAcquire(keys).then((lease) => {
  process.stdout.write((lease ? 'held' : 'busy') + '\\n');
  if (lease) setInterval(() => undefined, 1000);
});
`;

/** Keys no other test (or run) uses: the lease is machine-wide. */
const freshKey = (): LeaseKey => ({ dev: '999', ino: BigInt(`0x${randomBytes(7).toString('hex')}`).toString() });

describe('localLeaseProvider', () => {
  const provider = localLeaseProvider();
  const leases: WorkspaceLease[] = [];
  const children: ChildProcess[] = [];
  const acquire = async (keys: LeaseKey[]) => {
    const lease = await provider.tryAcquire(keys);
    if (lease) leases.push(lease);
    return lease;
  };
  const holder = (keys: LeaseKey[]) => {
    const child = spawnNode(`process.argv.splice(1, 0, ${JSON.stringify(JSON.stringify(keys))});\n${HOLDER}`);
    children.push(child);
    return child;
  };

  afterEach(async () => {
    for (const lease of leases.splice(0)) await lease.release();
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('is exclusive within one process until released; release is idempotent', async () => {
    const key = freshKey();
    const first = await acquire([key]);
    expect(first?.keys).toEqual([key]);
    expect(await acquire([key])).toBeNull();
    expect(await localLeaseProvider().tryAcquire([key])).toBeNull();
    await first!.release();
    await first!.release();
    expect(await acquire([key])).not.toBeNull();
  });

  it('grants one of two concurrent requests of one process', async () => {
    const key = freshKey();
    const both = await Promise.all([acquire([key]), acquire([key])]);
    expect(both.filter((lease) => lease !== null)).toHaveLength(1);
  });

  it('takes all the keys or none, and lets different keys run independently', async () => {
    const [a, b, c] = [freshKey(), freshKey(), freshKey()];
    expect(await acquire([b])).not.toBeNull();
    expect(await acquire([c, a, b])).toBeNull();
    const both = await acquire([c, a, c]);
    expect(both?.keys).toHaveLength(2);
  });

  it('is busy for another process while held here', async () => {
    const key = freshKey();
    await acquire([key]);
    const child = holder([key]);
    const run = await ended(child);
    expect(run.stdout).toBe('busy\n');
  });

  it('is busy here while another process holds it, and free once that process is SIGKILLed', async () => {
    const key = freshKey();
    const child = holder([key]);
    await printed(child, 'held');
    expect(await acquire([key])).toBeNull();
    const gone = ended(child);
    child.kill('SIGKILL');
    expect((await gone).signal).toBe('SIGKILL');
    expect(await acquire([key])).not.toBeNull();
  });

  it('is one lease for one directory reached through two roots (root B is a subdirectory of root A)', async () => {
    const tmp = mkdtempSync(join(tmpdir(), 'palimpsest-lease-'));
    mkdirSync(join(tmp, 'a', 'b', 'dir'), { recursive: true });
    const rootA = openWorkspaceRoot(join(tmp, 'a'));
    const rootB = openWorkspaceRoot(join(tmp, 'a', 'b'));
    try {
      const viaA = openDestination(rootA, 'b/dir/x.txt', { createParents: false });
      const viaB = openDestination(rootB, 'dir/y.txt', { createParents: false });
      if (viaA.kind !== 'opened' || viaB.kind !== 'opened') throw new Error('the destinations should open');
      expect(await acquire([viaA.dest.dir])).not.toBeNull();
      expect(await acquire([viaB.dest.dir])).toBeNull();
      const sibling = openDestination(rootB, 'z.txt', { createParents: false });
      expect(sibling.kind === 'opened' && (await acquire([sibling.dest.dir]))).not.toBeNull();
      for (const d of [viaA, viaB, sibling]) if (d.kind === 'opened') d.dest.close();
    } finally {
      rootA.close();
      rootB.close();
      rmSync(tmp, { recursive: true, force: true });
    }
  });
});

describe('waitingLeases', () => {
  const children: ChildProcess[] = [];
  afterEach(() => {
    for (const child of children.splice(0)) if (child.exitCode === null && child.signalCode === null) child.kill('SIGKILL');
  });

  it('serves the waiters of one directory in the order they came, each once the previous released', async () => {
    const leases = waitingLeases(localLeaseProvider(), 10_000);
    const key = freshKey();
    const order: number[] = [];
    let holding = 0;
    let overlapped = false;
    await Promise.all(
      Array.from({ length: 8 }, async (_, i) => {
        const lease = await leases.acquire([key]);
        if (!lease) throw new Error(`waiter ${i} was refused`);
        overlapped ||= holding++ > 0;
        order.push(i);
        await new Promise((resolve) => setImmediate(resolve));
        holding--;
        await lease.release();
      }),
    );
    expect(overlapped).toBe(false);
    expect(order).toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
  });

  it('lets a waiter for another directory pass a queue it is not part of', async () => {
    const leases = waitingLeases(localLeaseProvider(), 10_000);
    const [busy, free] = [freshKey(), freshKey()];
    const held = await leases.acquire([busy]);
    const queued = leases.acquire([busy]);
    const other = await leases.acquire([free]);
    expect(other).not.toBeNull();
    await other!.release();
    await held!.release();
    await (await queued)!.release();
  });

  it('waits for another process to let go, and answers null once its bounded wait is over', async () => {
    const key = freshKey();
    const child = spawnNode(`process.argv.splice(1, 0, ${JSON.stringify(JSON.stringify([key]))});\n${HOLDER}`);
    children.push(child);
    await printed(child, 'held');
    const started = Date.now();
    expect(await waitingLeases(localLeaseProvider(), 150).acquire([key])).toBeNull();
    expect(Date.now() - started).toBeGreaterThanOrEqual(150);
    const waiting = waitingLeases(localLeaseProvider(), 10_000).acquire([key]);
    child.kill('SIGKILL');
    const lease = await waiting;
    expect(lease?.keys).toEqual([key]);
    await lease!.release();
  });

  it('reads its bound from PALIMPSEST_LEASE_WAIT_MS (10 s by default) and refuses a bad value', () => {
    expect(leaseWaitFromEnv({})).toBe(10_000);
    expect(leaseWaitFromEnv({ PALIMPSEST_LEASE_WAIT_MS: '0' })).toBe(0);
    expect(() => leaseWaitFromEnv({ PALIMPSEST_LEASE_WAIT_MS: 'soon' })).toThrow(/PALIMPSEST_LEASE_WAIT_MS/);
  });
});
