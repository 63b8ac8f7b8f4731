import { AskedCalls } from './asked-calls';

describe('AskedCalls', () => {
  it('knows a call asked of a device whichever connection answers it, once', () => {
    const asked = new AskedCalls();
    asked.add('rq_1', 'dev_a');
    expect(asked.take('rq_1', 'dev_b')).toBe(false); // another device's result for it is not late: it is forged
    expect(asked.take('rq_1', 'dev_a')).toBe(true);
    expect(asked.take('rq_1', 'dev_a')).toBe(false);
    expect(asked.take('rq_never', 'dev_a')).toBe(false);
  });

  it('forgets the oldest ids past its bound', () => {
    const asked = new AskedCalls(2);
    asked.add('rq_1', 'dev_a');
    asked.add('rq_2', 'dev_a');
    asked.add('rq_3', 'dev_a');
    expect(asked.take('rq_1', 'dev_a')).toBe(false);
    expect(asked.take('rq_2', 'dev_a')).toBe(true);
    expect(asked.take('rq_3', 'dev_a')).toBe(true);
  });
});
