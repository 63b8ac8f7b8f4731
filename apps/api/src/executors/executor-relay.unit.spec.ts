import { answerOf, isAnswerOf } from './executor-relay';
import type { RelayCallSent } from '@palimpsest/application/relay/relay-record';

const sent = { key: 'k', request_id: 'rq_1', tool: 'read_file' } as RelayCallSent;

describe('what an executor\'s tool.result may answer', () => {
  it('an ok value is an answer of its tool: an object whose status the tool\'s result schema names', () => {
    expect(isAnswerOf('read_file', { status: 'ok', path: 'a', content: '', truncated: false, totalLines: 0 })).toBe(true);
    expect(isAnswerOf('read_file', { status: 'not_found', code: 'PATH_NOT_FOUND' })).toBe(true);
    expect(isAnswerOf('read_file', { status: 'pwned' })).toBe(false);
    expect(isAnswerOf('read_file', { status: 'rejected' })).toBe(false); // a write's status, not a read's
    expect(isAnswerOf('edit_file', { status: 'rejected' })).toBe(true);
    for (const value of [null, 42, 'ok', [], {}]) expect(isAnswerOf('read_file', value)).toBe(false);
  });

  it('an error is the protocol\'s code as the answer, retryable only for a timeout, and says whether the call ran', () => {
    expect(answerOf(sent, { type: 'tool.result', requestId: 'rq_1', durationMs: 3, result: { ok: false, error: { code: 'PATH_ESCAPE', message: 'outside' } } })).toEqual({
      status: 'invalid_argument', code: 'PATH_ESCAPE', answer: 'PATH_ESCAPE', retryable: 'none', failure_detail: 'outside', outcome: 'not_applied', client_request_id: 'k',
    });
    // Only an executor that could not say leaves the outcome unknown.
    expect(answerOf(sent, { type: 'tool.result', requestId: 'rq_1', durationMs: 3, result: { ok: false, error: { code: 'INTERNAL_ERROR', message: 'killed' } } })).toMatchObject({ outcome: 'unknown' });
    expect(answerOf(sent, { type: 'tool.result', requestId: 'rq_1', durationMs: 3, result: { ok: false, error: { code: 'TOOL_TIMEOUT', message: 'slow' } } })).toMatchObject({ retryable: 'same_request' });
    expect(answerOf(sent, { type: 'tool.result', requestId: 'rq_1', durationMs: 3, result: { ok: true, value: { status: 'ok' } } })).toEqual({ status: 'ok' });
  });
});
