import { diffTexts } from './version-diff';

describe('diffTexts', () => {
  it('answers unified hunks with one-based lines and code-point spans in both texts', () => {
    const page = diffTexts('a\n😀 b\nc\n', 'a\n😀 B\nc\nd\n');
    expect(page).toMatchObject({ total_hunks: 1, next_hunk: null, truncated: false });
    expect(page.hunks[0]).toEqual({
      header: '@@ -1,3 +1,4 @@', old_start_line: 1, old_lines: 3, new_start_line: 1, new_lines: 4,
      old_start: 0, old_end: 8, new_start: 0, new_end: 10, lines: [' a', '-😀 b', '+😀 B', ' c', '+d'],
    });
  });

  it('places a hunk that only inserts or only deletes', () => {
    const added = diffTexts('', 'x\n').hunks[0]!;
    expect(added).toMatchObject({ old_start: 0, old_end: 0, new_start: 0, new_end: 2, lines: ['+x'] });
    const removed = diffTexts('x\n', '').hunks[0]!;
    expect(removed).toMatchObject({ old_start: 0, old_end: 2, new_start: 0, new_end: 0, lines: ['-x'] });
  });

  it('pages by hunk within a budget, at least one hunk a page', () => {
    const old = Array.from({ length: 100 }, (_, i) => `l${i}`).join('\n') + '\n';
    const next = old.replace('l10\n', 'L10\n').replace('l50\n', 'L50\n').replace('l90\n', 'L90\n');
    const first = diffTexts(old, next, 0, 1);
    expect(first).toMatchObject({ total_hunks: 3, next_hunk: 1, truncated: true });
    expect(first.hunks).toHaveLength(1);
    const rest = diffTexts(old, next, 1, 100_000);
    expect(rest.hunks.map((h) => h.old_start_line)).toEqual([48, 88]);
    expect(rest.next_hunk).toBeNull();
    expect(diffTexts(old, old)).toEqual({ hunks: [], total_hunks: 0, next_hunk: null, truncated: false });
  });
});
