import { generateKeyPairSync } from 'node:crypto';
import { appendToStream } from '@palimpsest/store/append-to-stream';
import { readAll } from '@palimpsest/store/read-all';
import { CountingDb } from '@palimpsest/store/test-support/counting-db';
import { eventually } from '@palimpsest/store/test-support/eventually';
import { sampleEvents, uniqueStreamId } from '@palimpsest/store/test-support/sample-events';
import { describeBackend, useTestDb } from '@palimpsest/store/test-support/test-db';
import { auditLogProcessor } from './audit-log.reactor';
import { auditSigner } from './audit-signer';

describe(`what the Merkle log's reactor costs a batch (${describeBackend})`, () => {
  const store = useTestDb();
  const signer = auditSigner(generateKeyPairSync('ed25519').privateKey, 'palimpsest.test', 'palimpsest.test/log');

  it('reads its state, writes leaves, nodes and state in one statement, and commits: 3 statements, 1 transaction', async () => {
    const stream = uniqueStreamId('costed');
    await appendToStream(store.db, stream, 0, sampleEvents(40));
    // The page as the consumer reads it for a processor that reads chain links.
    const page = await eventually(() => readAll(store.db, { limit: 1000, withChain: true }), (read) => read.filter((e) => e.streamId === stream).length === 40, { timeoutMs: 60_000 });
    const counted = new CountingDb(store.db);
    const processor = auditLogProcessor(counted, signer, { everyEvents: 1_000_000, everySeconds: 3600 }, () => new Date('2026-01-01T00:00:00Z'));
    let committed = 0;
    // The first batch signs (no checkpoint yet); the cost is the next one's.
    await processor.handle(page.slice(0, 1), { commit: async () => void committed++ });
    counted.reset();
    await processor.handle(page.slice(1), { commit: async (sql = counted) => void (await sql.query('SELECT 1'), committed++) });
    expect({ statements: counted.statements, transactions: counted.transactions, committed }).toEqual({ statements: 3, transactions: 1, committed: 2 });
    const { rows } = await store.db.query<{ n: number }>('SELECT count(*)::int AS n FROM audit_leaves');
    expect(rows[0]!.n).toBe(page.length);
  });
});
