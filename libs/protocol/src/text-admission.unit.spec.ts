import fc from 'fast-check';
import { textDefect } from '@palimpsest/core/text/encoding';
import { admit } from './admission';
import { findOperation } from './catalog/catalog';
import type { OperationSpec } from './catalog/operation-spec';

const ID = '5f0c8a2e-8d1b-4c3e-9a7f-2b6d4e8f1a30';
const op = (name: string): OperationSpec => findOperation(name)!;
const find = (text: string) => admit(op('palimpsest_find_occurrences'), { target_file_id: ID, text });

describe('text admission', () => {
  it.each([
    ['a NUL', 'a\u0000b', 'U+0000'],
    ['a lone high surrogate', 'a\ud800', 'unpaired'],
    ['a lone low surrogate', '\udc00b', 'unpaired'],
  ])('refuses %s in search text as invalid_text_encoding, naming the field', (_title, text, words) => {
    const refused = find(text);
    expect(refused).toMatchObject({
      status: 'invalid_argument',
      code: 'invalid_text_encoding',
      tool: 'palimpsest_find_occurrences',
      argument: 'text',
      errors: [{ path: 'text' }],
    });
    expect(refused!.failure_detail).toContain(words);
  });

  it('admits noncharacters and astral characters: they are valid UTF-8 text', () => {
    for (const text of ['\ufffe', '\uffff', '\ufdd0', '\ufdef', '\u{1fffe}', '\u{1f600}']) expect(find(text)).toBeNull();
  });

  it('refuses exactly the strings PostgreSQL text cannot hold', () => {
    fc.assert(
      // Halves may meet and pair up (\ud800 then \udc00 is one valid character): that case matters most.
      fc.property(fc.string({ unit: fc.constantFrom('a', 'é', '\u0000', '\ud800', '\udc00', '\ufffe', '\u{1f600}'), minLength: 1 }), (text) => {
        expect(find(text) === null).toBe(textDefect(text) === null);
      }),
    );
  });

  it('names nested fields by dotted path, as schema refusals do', () => {
    const refused = admit(op('palimpsest_change_propose'), {
      request_id: 'r1',
      base: [{ target_file_id: ID, version: 0 }],
      operations: [{ kind: 'edit', target_file_id: ID, match: 'a', replace: 'b\u0000' }],
    });
    expect(refused).toMatchObject({ code: 'invalid_text_encoding', argument: 'operations', errors: [{ path: 'operations.0.replace' }] });
  });

  it('leaves the decider the fields of an audited operation, and refuses only its edge fields', () => {
    const edits = op('palimpsest_submit_edits');
    const call = { target_file_id: ID, intent: 'i\u0000', expected_target_version: 0, client_request_id: 'k\u0000', edits: [{ match: 'a', replace: '\ud800' }] };
    expect(admit(edits, call)).toBeNull();
    expect(admit(edits, { ...call, target_file_id: `${ID}\u0000` })).toMatchObject({ code: 'invalid_text_encoding', argument: 'target_file_id' });
  });

  it('reports schema violations before text (a pattern already excludes the character)', () => {
    const refused = admit(op('palimpsest_change_apply'), { candidate: ID, expected_candidate_version: 1, request_id: 'r\u0000' });
    expect(refused).toMatchObject({ code: 'invalid_argument_value', argument: 'request_id' });
  });
});
