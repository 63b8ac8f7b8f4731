import { failedIndexOf, retryArgs, retryKey, withChange } from './retry-request';
import { occurrenceStarts, positionOf } from './text-position';

const ATTEMPT = '9a5d9390-565b-450e-9d30-0c0c1bf90470';
const basis = { current_version: 4, current_hash: 'f'.repeat(64), attempt_id: ATTEMPT };

describe('retry requests', () => {
  it('refreshes the guards the caller used, derives a new key and names the rejected attempt as parent', () => {
    const args = { target_file_id: 't', intent: 'i', expected_target_version: 1, client_request_id: 'req-1', edits: [] };
    expect(retryArgs({ operation: 'palimpsest_submit_edits', args }, basis)).toEqual({
      ...args,
      expected_target_version: 4,
      client_request_id: `req-1~retry-${ATTEMPT.slice(0, 8)}`,
      parent_attempt_id: ATTEMPT,
      attempt: 2,
    });
    const hashOnly = retryArgs({ operation: 'palimpsest_submit_edits', args: { expected_current_hash: '0'.repeat(64), attempt: 3 } }, basis);
    expect(hashOnly).toEqual({ expected_current_hash: basis.current_hash, parent_attempt_id: ATTEMPT, attempt: 4 });
  });

  it('a preview (nothing recorded) gets refreshed guards only', () => {
    const args = { target_file_id: 't', format: 'patchdiff-tx/1', expected_target_version: 0 };
    expect(retryArgs({ operation: 'palimpsest_preview', args }, { ...basis, attempt_id: null })).toEqual({ ...args, expected_target_version: 4 });
  });

  it('derived keys stay within 128 printable ASCII characters however often they are derived', () => {
    let key = 'k'.repeat(128);
    for (let i = 0; i < 5; i++) key = retryKey(key, ATTEMPT);
    expect(key.length).toBeLessThanOrEqual(128);
    expect(key).toMatch(/^[\x21-\x7e]+$/);
  });

  it('finds the failed change by its id or its default id, and replaces only it', () => {
    const args = { edits: [{ match: 'a' }, { match: 'b', change_id: 'rename' }, { match: 'c' }] };
    expect(failedIndexOf(args, 'chg_001')).toBe(0);
    expect(failedIndexOf(args, 'rename')).toBe(1);
    expect(failedIndexOf(args, 'chg_003')).toBe(2);
    expect(failedIndexOf(args, null)).toBeNull();
    expect(withChange(args, 'edits', 1, { match: 'B' }).edits).toEqual([{ match: 'a' }, { match: 'B' }, { match: 'c' }]);
    expect(args.edits[1]).toEqual({ match: 'b', change_id: 'rename' });
  });
});

describe('text positions', () => {
  it('gives 1-based lines and code-point columns, astral characters counted once', () => {
    const text = '𠮷野家\n🐮 large 🐮\n';
    expect(positionOf(text, 0)).toEqual({ line: 1, column: 1 });
    expect(positionOf(text, 4)).toEqual({ line: 2, column: 1 });
    expect(positionOf(text, 12)).toEqual({ line: 2, column: 9 });
    expect(occurrenceStarts(text, '🐮', 5)).toEqual([4, 12]);
    expect(occurrenceStarts('aaa', 'aa', 5)).toEqual([0, 1]);
  });
});
