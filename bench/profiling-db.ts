import type { Db, QueryResult, Tx } from '@palimpsest/store/db';
import { ForwardingDb } from '@palimpsest/store/forwarding-db';
import { nowMs } from './stats';

/**
 * Wraps a Db to count round trips and time them by statement kind, for the phase breakdown.
 * `transaction` records BEGIN+COMMIT as the transaction's wall time minus its callback's.
 */
export interface PhaseTotals {
  count: number;
  ms: number;
  bytesSent: number;
  /** UTF-8 bytes of the string values in the result rows (what came back, roughly). */
  bytesReceived: number;
}

export class ProfilingDb extends ForwardingDb {
  readonly phases = new Map<string, PhaseTotals>();
  /** Wall time spent in transaction() calls, BEGIN to COMMIT included. */
  transactionMs = 0;

  constructor(inner: Db) {
    super(inner);
  }

  /** The wrapped Db, for work that should not be profiled (the post-commit wake-ups). */
  get unprofiled(): Db {
    return this.inner;
  }

  reset(): void {
    this.phases.clear();
    this.transactionMs = 0;
  }

  record(label: string, ms: number, bytesSent = 0, roundTrips = 1, bytesReceived = 0): void {
    const p = this.phases.get(label) ?? { count: 0, ms: 0, bytesSent: 0, bytesReceived: 0 };
    p.count += roundTrips;
    p.ms += ms;
    p.bytesSent += bytesSent;
    p.bytesReceived += bytesReceived;
    this.phases.set(label, p);
  }

  private async timed<R>(text: string, params: unknown[] | undefined, run: () => Promise<QueryResult<R>>) {
    const t0 = nowMs();
    const result = await run();
    const ms = nowMs() - t0;
    this.record(labelOf(text), ms, bytesOf(params), 1, bytesOf(result.rows.flatMap((row) => Object.values(row as object))));
    return result;
  }

  override query<R = any>(text: string, params?: unknown[]): Promise<QueryResult<R>> {
    return this.timed(text, params, () => this.inner.query<R>(text, params));
  }

  override async transaction<T>(fn: (tx: Tx) => Promise<T>): Promise<T> {
    let inside = 0;
    const t0 = nowMs();
    try {
      return await this.inner.transaction(async (tx) => {
        const wrapped: Tx = {
          query: <R>(text: string, params?: unknown[]) => this.timed(text, params, () => tx.query<R>(text, params)),
          exec: (script: string) => tx.exec(script),
        };
        const t1 = nowMs();
        try {
          return await fn(wrapped);
        } finally {
          inside = nowMs() - t1;
        }
      });
    } finally {
      const wall = nowMs() - t0;
      this.transactionMs += wall;
      this.record('BEGIN, COMMIT (incl. WAL flush)', wall - inside, 0, 2);
    }
  }

}

function bytesOf(params: unknown[] | undefined): number {
  if (!params) return 0;
  let n = 0;
  for (const p of params) if (typeof p === 'string') n += Buffer.byteLength(p);
  return n;
}

const KNOWN: [RegExp, string][] = [
  [/guarded AS MATERIALIZED/i, 'optimistic commit (lock, check, append, project, COMMIT)'],
  [/FOR UPDATE/i, 'lock target row (SELECT … FOR UPDATE)'],
  [/INSERT INTO events/i, 'append event + projections (locked path)'],
  [/FROM attempts a JOIN events/i, 'request key lookup'],
  [/INSERT INTO attempts|UPDATE targets/i, 'project inline (attempts, ledger, target row)'],
  [/FROM targets WHERE target_id/i, 'read target row'],
];

function labelOf(text: string): string {
  for (const [re, label] of KNOWN) if (re.test(text)) return label;
  return text.replace(/\s+/g, ' ').trim().slice(0, 48);
}
