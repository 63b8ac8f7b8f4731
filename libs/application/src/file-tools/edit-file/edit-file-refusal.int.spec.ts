import fc from 'fast-check';
import { readFileSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { type AppContext } from '../../app-context';
import { dispatchRequest as dispatch } from '../../dispatch/dispatch';
import { createWorkspaceHarness, type WorkspaceHarness } from '../../test-support/workspace-harness';
import { EDIT_REFUSAL_BYTES } from './edit-file-refusal';

type Answer = Record<string, any>;
const sent = (a: unknown) => Buffer.byteLength(JSON.stringify(a), 'utf8');
const TX1_INTERNALS = ['validation_stage', 'requires_new_submission', 'near_miss_query', 'failure_context', 'current_context', 'diagnostic'];

describe(`edit_file refusals: lean, and one more call lands on ${describeBackend}`, () => {
  let harness: WorkspaceHarness;
  let ctx: AppContext;
  let dir: string;
  beforeAll(async () => {
    harness = await createWorkspaceHarness('palimpsest-edit-refusal-');
    ({ ctx, dir } = harness);
  });
  afterAll(() => harness.dispose());

  const put = (path: string, text: string) => writeFileSync(join(dir, path), text);
  const disk = (path: string) => readFileSync(join(dir, path), 'utf8');
  const call = (name: string, args: Record<string, unknown>) => dispatch(ctx, name, args) as Promise<Answer>;

  /** A refusal within the budget, without the tx/1 internals, with one ordered list of next actions. */
  async function refused(args: Record<string, unknown>): Promise<Answer> {
    const r = await call('edit_file', args);
    expect(r.status).toBe('rejected');
    expect(sent(r)).toBeLessThanOrEqual(EDIT_REFUSAL_BYTES);
    const text = JSON.stringify(r);
    for (const field of TX1_INTERNALS) expect(text).not.toContain(`"${field}"`);
    expect(typeof r.retryable).toBe('string');
    expect(r.next_actions.length).toBeGreaterThan(0);
    return r;
  }

  /** Sends every edit_file next action as given on a fresh copy of `text`: each lands, making the change at its line. */
  async function eachCallLands(path: string, text: string, r: Answer, oldString: string, newString: string) {
    const calls = r.next_actions.filter((a: Answer) => a.operation === 'edit_file');
    for (const action of calls) {
      put(path, text);
      const line = Number(/line (\d+)/.exec(action.reason)![1]);
      const done = await call(action.operation, action.params);
      expect(done).toMatchObject({ status: 'ok', replacements: 1 });
      const lines = text.split('\n');
      const at = lines.slice(0, line - 1).join('\n').length + (line > 1 ? 1 : 0);
      const start = text.indexOf(oldString, at);
      expect(text.slice(0, at).split('\n').length).toBe(line);
      expect(disk(path)).toBe(text.slice(0, start) + newString + text.slice(start + oldString.length));
    }
    return calls.length;
  }

  it('offers one ready call per occurrence, widened just enough, and each lands in one more call', async () => {
    const text = 'function a() {\n  return null;\n}\nfunction b() {\n  return null;\n}\nconst c = () => {\n  return null;\n};\n';
    put('three.ts', text);
    const r = await refused({ path: 'three.ts', oldString: '  return null;', newString: '  return undefined;' });
    expect(r).toMatchObject({ failure_reason: 'match_ambiguous', match_count: 3, match_lines: [2, 5, 8] });
    expect(r.next_actions.map((a: Answer) => a.operation)).toEqual(['edit_file', 'edit_file', 'edit_file']);
    expect(r.next_actions[1].params).toEqual({ path: 'three.ts', oldString: 'function b() {\n  return null;', newString: 'function b() {\n  return undefined;' });
    expect(await eachCallLands('three.ts', text, r, '  return null;', '  return undefined;')).toBe(3);
  });

  it('on a large file offers the occurrences nearest near_line first, and a read at the lines of the others', async () => {
    const lines = Array.from({ length: 20_000 }, (_, i) => (i % 40 === 0 ? '  },' : `  item${i}: value${i},`));
    const text = `${lines.join('\n')}\n`;
    put('big.ts', text);
    const r = await refused({ path: 'big.ts', oldString: '  },', newString: '  }, // end', near_line: 8_005 });
    expect(r.match_count).toBe(500);
    expect(r.match_lines).toHaveLength(20);
    const calls = r.next_actions.filter((a: Answer) => a.operation === 'edit_file');
    expect(calls.length).toBeGreaterThanOrEqual(2);
    expect(calls[0].reason).toContain('line 8001');
    const read = r.next_actions.at(-1);
    expect(read.operation).toBe('read_file');
    expect(read.params.offset).toBeGreaterThan(7_900);
    expect(read.params.offset).toBeLessThan(8_100);
    const page = await call('read_file', read.params);
    expect(page.status).toBe('ok');
    const named = Number(/line (\d+)/.exec(read.reason)![1]);
    expect(page.content.split('\n')[named - read.params.offset]).toBe('  },');
    await eachCallLands('big.ts', text, r, '  },', '  }, // end');
    put('big.ts', text);
    const inOrder = await refused({ path: 'big.ts', oldString: '  },', newString: '  }, // end' });
    expect(inOrder.match_lines.slice(0, 3)).toEqual([1, 41, 81]);
    expect(inOrder.next_actions[0].reason).toBe('The occurrence on line 1');
    expect(inOrder.failure_detail).toContain('near_line');
  });

  it('gives the contexts alone when a ready call would not fit (a long newString), and they land when wrapped around both strings', async () => {
    const text = 'alpha\nmark\nbeta\nmark\ngamma\n';
    put('long.md', text);
    const newString = 'x'.repeat(3_000);
    const r = await refused({ path: 'long.md', oldString: 'mark', newString });
    expect(r.next_actions.filter((a: Answer) => a.operation === 'edit_file')).toEqual([]);
    const second = r.occurrences.find((o: Answer) => o.line === 4);
    const done = await call('edit_file', { path: 'long.md', oldString: second.before + 'mark' + second.after, newString: second.before + newString + second.after });
    expect(done.status).toBe('ok');
    expect(disk('long.md')).toBe(`alpha\nmark\nbeta\n${newString}\ngamma\n`);
  });

  it('offers the corrected call for a close near miss, which lands', async () => {
    const text = 'The quick brown fox jumps over the lazy dog.\nA second line.\n';
    put('near.md', text);
    const r = await refused({ path: 'near.md', oldString: 'quick brwn fox', newString: 'slow fox' });
    expect(r).toMatchObject({ failure_reason: 'match_absent', match_count: 0 });
    expect(r.near_misses[0]).toMatchObject({ line: 1, text: 'quick brown fox' });
    expect(r.next_actions[0]).toEqual({ operation: 'edit_file', reason: 'The closest text, on line 1', params: { path: 'near.md', oldString: 'quick brown fox', newString: 'slow fox' } });
    expect(r.next_actions[1]).toMatchObject({ operation: 'read_file', params: { path: 'near.md', offset: 1 } });
    expect((await call('edit_file', r.next_actions[0].params)).status).toBe('ok');
    expect(disk('near.md')).toBe('The slow fox jumps over the lazy dog.\nA second line.\n');
  });

  it('offers a call per occurrence when the closest text of a mistyped oldString is a repeated line', async () => {
    const text = 'export const a = {\n  examples: [],\n};\nexport const b = {\n  examples: [],\n};\n';
    put('typo.ts', text);
    const r = await refused({ path: 'typo.ts', oldString: '  exmaples: [],', newString: '  examples: [1],' });
    expect(r).toMatchObject({ failure_reason: 'match_absent', match_count: 0, near_miss_lines: [2, 5] });
    expect(r.failure_detail).toContain('closest text');
    expect(await eachCallLands('typo.ts', text, r, '  examples: [],', '  examples: [1],')).toBe(2);
  });

  it('points a read at the lines where an absent oldString should be, on a large file', async () => {
    const text = Array.from({ length: 30_000 }, (_, i) => `line ${i} of the log`).join('\n');
    put('log.txt', text);
    const r = await refused({ path: 'log.txt', oldString: 'line 25000 of the log\nsomething that is not there at all', newString: 'x' });
    expect(r.next_actions).toHaveLength(1);
    const read = r.next_actions[0];
    expect(read).toMatchObject({ operation: 'read_file', params: { path: 'log.txt', offset: 24_998 } });
    const page = await call('read_file', read.params);
    expect(page.content).toContain('line 25000 of the log');
  });

  it('stays within the budget whatever the text and strings, and every offered call lands (property)', async () => {
    const line = fc.constantFrom('}', '  return x;', '', 'let x = 1;', '😀 𠮷 text', `${'lorem ipsum '.repeat(40)}end`, '\t\tindented', 'x');
    await fc.assert(
      fc.asyncProperty(fc.array(line, { minLength: 2, maxLength: 60 }), fc.nat(), fc.string({ maxLength: 2_500, unit: 'grapheme' }), async (lines, pick, suffix) => {
        const text = `${lines.join('\n')}\n`;
        const oldString = lines[pick % lines.length]! || lines.find((l) => l !== '') || 'x';
        if (!text.includes(oldString)) return;
        const newString = `${oldString}!${suffix}`;
        put('prop.ts', text);
        const r = await call('edit_file', { path: 'prop.ts', oldString, newString });
        if (r.status === 'ok') return;
        expect(sent(r)).toBeLessThanOrEqual(EDIT_REFUSAL_BYTES);
        expect(r.next_actions.length).toBeGreaterThan(0);
        await eachCallLands('prop.ts', text, r, oldString, newString);
      }),
      { numRuns: 25 },
    );
    // 25 runs take 3-7 s alone; the whole suite on two cores (gateways, executors and Chromium beside it) stretched one past 60 s.
  }, 180_000);

  it('stays within the budget with a long path and long lines, and gives the full diagnostic on request', async () => {
    const path = `${'deep/'.repeat(20)}notes.md`;
    const { mkdirSync } = await import('node:fs');
    mkdirSync(join(dir, 'deep/'.repeat(20)), { recursive: true });
    const paragraph = (word: string) => `${'lorem ipsum dolor '.repeat(30)}${word} the shared phrase ${'sit amet '.repeat(30)}`;
    const text = `${paragraph('first')}\n\n${paragraph('second')}\n\n${paragraph('third')}\n`;
    put(path, text);
    const r = await refused({ path, oldString: 'the shared phrase', newString: 'a phrase of its own' });
    expect(await eachCallLands(path, text, r, 'the shared phrase', 'a phrase of its own')).toBeGreaterThanOrEqual(1);
    put(path, text);
    const full = await call('edit_file', { path, oldString: 'the shared phrase', newString: 'x', detail: true });
    expect(full.diagnostic.exact_candidates.occurrence_count).toBe(3);
    expect(full.next_actions[0].operation).toBe('edit_file');
  });
});
