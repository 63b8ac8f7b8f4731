import type { Db } from '@palimpsest/store/db';
import { consumerOptions } from './consumer-options';
import type { ShardLeases } from './leader-lease';
import type { LogProcessor } from './log-processor';
import { ProcessorSlot } from './processor-slot';

const slotOf = (processor: Partial<LogProcessor>) =>
  new ProcessorSlot({} as Db, { name: 'p', kind: 'projection', handle: async () => undefined, ...processor }, consumerOptions({ batchSize: 500, catchUpBatchSize: 3_000 }), {} as ShardLeases);

describe('a processor slot’s page size', () => {
  it('widens to catchUpBatchSize after a full page while the processor widens, and drops back after one not full', () => {
    const slot = slotOf({ widensPages: true });
    expect(slot.pageAfter(500, 500)).toBe(3_000);
    expect(slot.pageAfter(3_000, 3_000)).toBe(3_000);
    expect(slot.pageAfter(2_999, 3_000)).toBe(500);
    expect(slot.pageAfter(0, 500)).toBe(500);
  });

  it('reads a wide page first, since it took the lead: it is likely behind', () => {
    expect(slotOf({ widensPages: true }).pageSize).toBe(3_000);
    expect(slotOf({}).pageSize).toBe(500);
  });

  it('stays at the batch size for a processor that does not widen or sets its own', () => {
    expect(slotOf({}).pageAfter(500, 500)).toBe(500);
    expect(slotOf({ widensPages: true, batchSize: 100 }).pageAfter(100, 100)).toBe(100);
  });

  it('never reads less than batchSize while catching up', () => {
    expect(consumerOptions({ batchSize: 5_000, catchUpBatchSize: 1_000 }).catchUpBatchSize).toBe(5_000);
  });
});
