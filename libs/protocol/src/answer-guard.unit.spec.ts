import { answerErrors, isAnswerOf, isOutcomeOf } from './answer-guard';

const HASH = 'a'.repeat(64);

describe('answers read off the wire', () => {
  it('reads a success that its operation\'s answer schema describes, and not one that lacks a field', () => {
    const answer = { status: 'ok', target_file_id: 't', version: 2, current_hash: HASH, start: 0, end: 1, text: 'a', total_chars: 1, truncated: false, next_start: null };
    expect(isAnswerOf('palimpsest_read_target', answer)).toBe(true);
    const { text: _text, ...lacking } = answer;
    expect(isAnswerOf('palimpsest_read_target', lacking)).toBe(false);
    expect(answerErrors('palimpsest_read_target', lacking)).toMatch(/text/);
    expect(isAnswerOf('palimpsest_read_target', { ...answer, version: 'two' })).toBe(false);
  });

  it('reads a refusal of a status its operation lists, with typed details and next actions', () => {
    const refusal = {
      status: 'not_found',
      code: 'TARGET_NOT_FOUND',
      failure_detail: 'No target t.',
      retryable: 'none',
      next_actions: [{ operation: 'palimpsest_initialize_target', reason: 'Create it', params: { filename: 'a.md', content: '' } }],
    };
    expect(isAnswerOf('palimpsest_get_target', refusal)).toBe(true);
    expect(isAnswerOf('palimpsest_get_target', { ...refusal, status: 'rejected' })).toBe(false);
    expect(isAnswerOf('palimpsest_get_target', { ...refusal, retryable: true })).toBe(false);
    expect(isAnswerOf('palimpsest_get_target', { ...refusal, current_version: '3' })).toBe(false);
    const misspelled = [{ operation: 'palimpsest_initialise_target', reason: 'Create it', params: { filename: 'a.md' } }];
    expect(isAnswerOf('palimpsest_get_target', { ...refusal, next_actions: misspelled })).toBe(false);
    const unfit = [{ operation: 'palimpsest_initialize_target', reason: 'Create it', params: {} }];
    expect(isAnswerOf('palimpsest_get_target', { ...refusal, next_actions: unfit })).toBe(false);
  });

  it('reads dispatch\'s refusal of a name no operation has, and nothing else for it', () => {
    const unknown = { status: 'invalid_argument', code: 'unknown_operation', failure_detail: 'No operation named nope.' };
    expect(isOutcomeOf('nope', unknown)).toBe(true);
    expect(isOutcomeOf('nope', { status: 'ok' })).toBe(false);
    expect(isOutcomeOf('palimpsest_capabilities', null)).toBe(false);
    expect(isOutcomeOf('palimpsest_capabilities', [])).toBe(false);
  });
});
