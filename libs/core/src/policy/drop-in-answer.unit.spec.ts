import { dropInCode, withDropInAnswer } from './drop-in-answer';

describe('the drop-in answer code', () => {
  it.each([
    ['invalid_argument', 'missing_argument', 'INVALID_ARGUMENTS'],
    ['invalid_argument', 'unknown_argument', 'INVALID_ARGUMENTS'],
    ['invalid_argument', 'invalid_argument_value', 'INVALID_ARGUMENTS'],
    ['invalid_argument', 'PATH_INVALID', 'INVALID_ARGUMENTS'],
    ['invalid_argument', 'PATH_SYMLINK', 'INVALID_ARGUMENTS'],
    ['invalid_argument', 'PATH_ESCAPE', 'PATH_ESCAPE'],
    ['invalid_argument', 'PATH_RESERVED', 'FORBIDDEN'],
    ['invalid_argument', 'operation_not_permitted', 'FORBIDDEN'],
    ['not_found', 'PATH_NOT_FOUND', 'PATH_NOT_FOUND'],
    ['not_found', undefined, 'PATH_NOT_FOUND'],
    ['rejected', 'match_ambiguous', 'TOOL_FAILED'],
    ['rejected', 'external_disk_drift', 'TOOL_FAILED'],
    ['invalid_argument', 'workspace_not_configured', 'TOOL_FAILED'],
    ['error', 'TOOL_TIMEOUT', 'TOOL_TIMEOUT'],
    ['error', 'something_else', 'INTERNAL_ERROR'],
  ])('%s %s answers %s', (status, code, expected) => {
    expect(dropInCode(status, code)).toBe(expected);
  });

  it('is set on the drop-in tools only, never on an ok answer, and keeps a code the answer already names', () => {
    expect(withDropInAnswer('read_file', { status: 'invalid_argument', code: 'missing_argument' })).toMatchObject({ answer: 'INVALID_ARGUMENTS', code: 'missing_argument' });
    expect(withDropInAnswer('palimpsest_read_target', { status: 'invalid_argument', code: 'missing_argument' })).not.toHaveProperty('answer');
    expect(withDropInAnswer('read_file', { status: 'ok' })).not.toHaveProperty('answer');
    expect(withDropInAnswer('edit_file', { status: 'rejected', code: 'approval_declined', answer: 'APPROVAL_DECLINED' }).answer).toBe('APPROVAL_DECLINED');
  });

  it("takes a policy's FORBIDDEN from the envelope it comes in", () => {
    const refused = { status: 'error', error: { code: 'permission_denied', details: { answer: 'FORBIDDEN' } } };
    expect(withDropInAnswer('write_file', refused).answer).toBe('FORBIDDEN');
  });
});
