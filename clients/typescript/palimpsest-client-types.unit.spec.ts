import { PalimpsestClient, decodeResponse, type Result } from './palimpsest-client';

/**
 * The generated client's types, proven by the compiler: `npm run typecheck` (which covers this file)
 * fails when an @ts-expect-error line below stops being an error. The calls run against a transport
 * that answers one fixed line, so the test also checks the client reads an answer by its status.
 */

const answerLine = (result: unknown) => `${JSON.stringify({ jsonrpc: '2.0', id: 1, result })}\n`;

async function typedCalls(client: PalimpsestClient): Promise<unknown[]> {
  const out: unknown[] = [];
  const edits = [{ match: 'a', replace: 'b' }];
  // @ts-expect-error misspelled method
  out.push(await client.call('palimpsest_sumbit_edits', { target_file_id: 't', intent: 'x', edits }));
  // @ts-expect-error a param the method does not take
  out.push(await client.call('palimpsest_read_lines', { target_file_id: 't', start_line: 1, replacement: 'x' }));
  // @ts-expect-error a param of the wrong type
  out.push(await client.call('palimpsest_read_lines', { target_file_id: 't', start_line: 'one' }));
  // @ts-expect-error a required param missing
  out.push(await client.call('palimpsest_submit_edits', { target_file_id: 't', edits }));

  const submitted = await client.call('palimpsest_submit_edits', { target_file_id: 't', intent: 'x', expected_target_version: 0, edits });
  // @ts-expect-error a field no answer of submit_edits has
  out.push(submitted.line_count);
  if (submitted.status === 'accepted') {
    const version: number = submitted.version;
    // @ts-expect-error version is a number
    const notString: string = submitted.version;
    // @ts-expect-error an acceptance carries no scope text
    out.push(version, notString, submitted.scope_start);
  } else {
    const reason: string | undefined = submitted.failure_reason;
    // @ts-expect-error a refusal carries no version (its current_version says where the target is)
    out.push(reason, submitted.current_version, submitted.version);
    // @ts-expect-error a misspelled refusal detail (failed_change_id)
    out.push(submitted.failed_change);
  }
  // @ts-expect-error a submission never answers "ok"
  out.push(submitted.status === 'ok');

  const read = await client.call('palimpsest_read_lines', { target_file_id: 't' });
  if (read.status === 'ok') {
    const text: string = read.text;
    // @ts-expect-error a read has no attempt
    out.push(text, read.attempt_id);
  }
  for (const action of read.next_actions ?? []) {
    if (action.operation === 'palimpsest_read_target') {
      const start: number | undefined = action.params.start;
      // @ts-expect-error read_target's params have no start_line
      out.push(start, action.params.start_line);
    }
  }
  return out;
}

// @ts-expect-error a result of another method's status
const wrongStatus: Result<'palimpsest_save'> = { status: 'accepted' };

describe('the generated client, typed by method', () => {
  it('compiles only catalog methods, their params and their answers\' fields (the proof is the type check)', () => {
    expect([typeof typedCalls, wrongStatus.status]).toEqual(['function', 'accepted']);
  });

  it('answers call() with the method\'s result, read by its status', async () => {
    const sent: string[] = [];
    const accepted = { status: 'accepted', target_file_id: 't', version: 1 };
    const client = new PalimpsestClient(async (line) => {
      sent.push(line);
      return answerLine(accepted);
    });
    const result = await client.call('palimpsest_submit_edits', { target_file_id: 't', intent: 'x', expected_target_version: 0, edits: [{ match: 'a', replace: 'b' }] });
    expect(result.status === 'accepted' ? result.version : null).toBe(1);
    expect(JSON.parse(sent[0])).toMatchObject({ jsonrpc: '2.0', id: 1, method: 'palimpsest_submit_edits' });
  });

  it('refuses a status the method never answers with, and throws a JSON-RPC error', async () => {
    const saved = new PalimpsestClient(async () => answerLine({ status: 'saved' }));
    await expect(saved.call('palimpsest_get_target', { target_file_id: 't' })).rejects.toThrow(TypeError);
    expect(() => decodeResponse(answerLine({ status: 'saved' }), 'palimpsest_read_lines')).toThrow(TypeError);
    expect(decodeResponse(answerLine({ status: 'saved' }), 'palimpsest_save')).toEqual({ ok: true, id: 1, result: { status: 'saved' } });
    const failing = new PalimpsestClient(async () => JSON.stringify({ jsonrpc: '2.0', id: 1, error: { code: -32601, message: 'Method not found' } }));
    await expect(failing.call('palimpsest_capabilities', {})).rejects.toThrow('Method not found');
  });
});
