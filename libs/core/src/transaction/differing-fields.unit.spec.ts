import { differingFields } from './differing-fields';

const record = (edits: Record<string, unknown>[], intent = 'i') => ({ protocol_version: 'patchdiff-tx/1', intent, edits });

describe('differingFields', () => {
  it('finds nothing for equal records, whatever the key order', () => {
    expect(differingFields(record([{ match: 'a', replace: 'b' }]), record([{ replace: 'b', match: 'a' }]))).toEqual({
      fields: [],
      truncated: false,
    });
  });

  it('names changed, added and removed fields by record path in structural order', () => {
    const stored = record([{ match: 'a', replace: 'b', rationale: 'x' }, { match: 'c', replace: 'd' }]);
    const submitted = record([{ match: 'a', replace: 'B' }, { match: 'c', replace: 'd', risk: 'low' }], 'other');
    expect(differingFields(stored, submitted).fields).toEqual([
      'edits[0].rationale',
      'edits[0].replace',
      'edits[1].risk',
      'intent',
    ]);
  });

  it('names the array when lengths differ, then compares up to the shorter length', () => {
    const stored = record([{ match: 'a', replace: 'b' }]);
    const submitted = record([{ match: 'z', replace: 'b' }, { match: 'c', replace: 'd' }]);
    expect(differingFields(stored, submitted).fields).toEqual(['edits', 'edits[0].match']);
  });

  it('treats null and an absent field as different', () => {
    expect(differingFields(record([{ match: 'a', replace: 'b', risk: null }]), record([{ match: 'a', replace: 'b' }])).fields).toEqual([
      'edits[0].risk',
    ]);
  });

  it('caps the list and says so', () => {
    const edits = (v: string) => Array.from({ length: 12 }, () => ({ match: v, replace: 'r' }));
    const result = differingFields(record(edits('a')), record(edits('b')));
    expect(result.fields).toHaveLength(10);
    expect(result.fields[9]).toBe('edits[9].match');
    expect(result.truncated).toBe(true);
    expect(differingFields(record(edits('a')), record(edits('b')), 12).truncated).toBe(false);
  });

  it('compares other formats and type changes', () => {
    expect(differingFields({ replacement: 'a' }, { replacement: 'b' }).fields).toEqual(['replacement']);
    expect(differingFields({ edits: [] }, { edits: {} }).fields).toEqual(['edits']);
  });
});
