import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';

describe(`reads on ${describeBackend}`, () => {
  let h: AppHarness;
  let id: string;
  beforeAll(async () => {
    h = await createAppHarness();
    id = await h.target('one\ntwo 😀\nthree two\n');
  });
  afterAll(() => h.dispose());

  it('reads lines with line starts in code points', async () => {
    const r = await h.call('palimpsest_read_lines', { target_file_id: id, start_line: 2, end_line: 3, include_line_starts: true });
    expect(r).toMatchObject({ status: 'ok', version: 0, text: 'two 😀\nthree two\n', range_start: 4, total_lines: 4 });
    expect(r.line_starts).toEqual([{ line: 2, start: 4 }, { line: 3, start: 10 }]);
  });

  it('finds overlapping occurrences with context', async () => {
    const r = await h.call('palimpsest_find_occurrences', { target_file_id: id, text: 'two', context_chars: 2 });
    expect(r).toMatchObject({ occurrence_count: 2, returned_count: 2, truncated: false });
    expect(r.occurrences[1]).toMatchObject({ occurrence_index: 2, start: 16, end: 19 });
  });

  it('exports in every format and refuses unknown ones', async () => {
    const crlf = await h.call('palimpsest_export_target', { target_file_id: id, format: 'crlf' });
    expect(crlf).toMatchObject({ content: 'one\r\ntwo 😀\r\nthree two\r\n', content_eol: 'crlf' });
    const bad = await h.call('palimpsest_export_target', { target_file_id: id, format: 'utf16' });
    expect(bad).toMatchObject({ status: 'invalid_argument', code: 'unsupported_export_format' });
  });

  it('answers invalid arguments and unknown targets with documented codes', async () => {
    expect(await h.call('palimpsest_read_target', { target_file_id: id, start: -1 })).toMatchObject({ status: 'invalid_argument' });
    expect(await h.call('palimpsest_read_target', { target_file_id: id, start: true })).toMatchObject({ status: 'invalid_argument' });
    expect(await h.call('palimpsest_read_lines', { target_file_id: id, start_line: 9 })).toMatchObject({ code: 'line_out_of_range' });
    expect(await h.call('palimpsest_find_occurrences', { target_file_id: id, text: '\ud800' })).toMatchObject({ code: 'invalid_text_encoding' });
    expect(await h.call('palimpsest_get_target', { target_file_id: 'x' })).toMatchObject({ code: 'invalid_target_file_id' });
    expect(await h.call('palimpsest_get_target', { target_file_id: '00000000-0000-4000-8000-000000000000' })).toMatchObject({ status: 'not_found' });
    expect(await h.call('palimpsest_no_such_tool', {})).toMatchObject({ code: 'unknown_operation' });
  });

  it('refuses writes in the read-only profile', async () => {
    const { dispatch } = await import('../dispatch/dispatch');
    const r = await dispatch(h.ctx, 'palimpsest_save', { target_file_id: id }, { readOnly: true });
    expect(r).toMatchObject({ status: 'invalid_argument', code: 'operation_not_permitted' });
  });
});
