import fc from 'fast-check';
import { CATALOG } from '@palimpsest/protocol/catalog/catalog';
import { describeBackend } from '@palimpsest/store/test-support/test-db';
import { createAppHarness, type AppHarness } from '../test-support/app-harness';
import {
  HOSTILE_CHARS,
  SHAPE_FIXTURE,
  createFixture,
  hostileCall,
  hostileCases,
  positionArb,
  restoreFixture,
  slotName,
  type Answer,
  type HostileFixture,
  type HostileKind,
} from '../test-support/hostile-text-calls';
import { judge, recordsAttempt } from '../test-support/hostile-text-expectations';

const CASES = hostileCases(SHAPE_FIXTURE);
const KINDS: HostileKind[] = ['nul', 'lone_surrogate', 'noncharacter'];
const ASCII = /^[\x20-\x7e]*$/;

describe(`NUL, lone surrogates and noncharacters in every string field of every operation, through dispatch on ${describeBackend}`, () => {
  let h: AppHarness;
  let f: HostileFixture;
  const call = (name: string, args: unknown) => h.call(name, args);
  const attempts = () => h.count('SELECT count(*) FROM attempts WHERE target_id = $1', [f.target]);

  beforeAll(async () => {
    h = await createAppHarness();
    f = await createFixture(call);
  });
  afterAll(() => h.dispose());

  it('walks every string field of every params schema, nested ones included', () => {
    const names = new Set(CASES.map(slotName));
    for (const op of CATALOG.filter((o) => JSON.stringify(o.params).includes('"string"'))) {
      expect({ op: op.name, covered: CASES.some((c) => c.op === op) }).toEqual({ op: op.name, covered: true });
    }
    for (const name of [
      'palimpsest_submit_edits#0:client_request_id',
      'palimpsest_submit_edits#0:edits.0.anchor_before',
      'palimpsest_submit_operations#0:operations.1.expected_text',
      'palimpsest_preview#2:replacement',
      'palimpsest_get_attempt_log#0:content_hash',
      'palimpsest_change_propose#2:operations.0.expected_after',
      'palimpsest_change_inspect#0:targets',
    ]) {
      expect(names).toContain(name);
    }
  });

  it.each(KINDS)('%s: never an internal error, always the documented classification of the field', async (kind) => {
    const chars = HOSTILE_CHARS.filter((h) => h.kind === kind).map((h) => h.char);
    await fc.assert(
      fc.asyncProperty(fc.constantFrom(...CASES), fc.constantFrom(...chars), positionArb, async (c, char, at) => {
        const before = await attempts();
        let answer: Answer;
        try {
          answer = await call(c.op.name, hostileCall(c, f, char, at));
        } catch (err) {
          throw new Error(`${slotName(c)} threw: ${(err as Error).message}`);
        }
        const verdict = judge(c, kind, answer);
        if (!verdict.ok) throw new Error(`${slotName(c)}: ${verdict.why}\n${JSON.stringify(answer).slice(0, 600)}`);
        if (recordsAttempt(c, kind, answer)) {
          expect(await attempts()).toBe(before + 1);
          const log = await call('palimpsest_get_attempt_log', { target_file_id: f.target, limit: 1, include_content: true, detail: true });
          expect(log.entries[0]).toMatchObject({ status: 'rejected', failure_reason: answer.failure_reason });
        }
        if (answer.status === 'accepted') await restoreFixture(call, f);
      }),
      // Every field once with the kind's first character, then random fields, characters and positions
      // (examples count towards numRuns).
      { examples: CASES.map((c) => [c, chars[0], 1] as [typeof c, string, number]), numRuns: CASES.length + 60 },
    );
  });

  it('a NUL request key is a recorded invalid_client_request_id rejection that binds no key and is not retryable', async () => {
    await restoreFixture(call, f);
    const submit = (key: string) =>
      call('palimpsest_submit_edits', {
        target_file_id: f.target, intent: 'rename', expected_target_version: f.version, client_request_id: key,
        edits: [{ match: 'beta', replace: 'gamma' }],
      });
    const before = await attempts();
    for (const key of ['req\u0000001', 'req\u0000001', '\ud800']) {
      const r = await submit(key);
      expect(r).toMatchObject({
        status: 'rejected', failure_reason: 'context_invalid', client_request_id: key,
        diagnostic: { code: 'invalid_client_request_id' }, retryable: 'none',
      });
      expect(r.diagnostic.submitted_key_preview).toMatch(ASCII);
    }
    expect(await attempts()).toBe(before + 3);
    const log = await call('palimpsest_get_attempt_log', { target_file_id: f.target, limit: 3, detail: true });
    expect(log.entries.map((e: Answer) => [e.client_request_id, e.diagnostic.submitted_key_preview])).toEqual([
      [null, '\\ud800'],
      [null, 'req\\u0000001'],
      [null, 'req\\u0000001'],
    ]);
    expect(await call('palimpsest_get_attempt_log', { target_file_id: f.target, client_request_id: 'req\u0000001' })).toMatchObject({
      status: 'invalid_argument', code: 'invalid_text_encoding', argument: 'client_request_id',
    });
  });

  it('a NUL in edit text is audited with ASCII-escaped evidence, and a noncharacter is stored as the text it is', async () => {
    await restoreFixture(call, f);
    const bad = await call('palimpsest_submit_edits', {
      target_file_id: f.target, intent: 'i', expected_target_version: f.version, edits: [{ match: 'beta', replace: 'x\u0000y' }],
    });
    expect(bad).toMatchObject({ status: 'rejected', failure_reason: 'target_encoding_invalid', diagnostic: { path: 'proposal.edits[0].replace' } });
    const [entry] = (await call('palimpsest_get_attempt_log', { target_file_id: f.target, limit: 1, include_content: true, detail: true })).entries;
    expect(entry.attempt_content).toMatch(ASCII);
    expect(JSON.parse(entry.attempt_content).proposal.edits[0].replace).toBe('x\u0000y');

    const good = await call('palimpsest_submit_edits', {
      target_file_id: f.target, intent: 'keep \ufffe', expected_target_version: f.version, edits: [{ match: 'beta', replace: '\ufdd0\uffff' }],
    });
    expect(good).toMatchObject({ status: 'accepted' });
    expect((await call('palimpsest_get_target', { target_file_id: f.target })).current_content).toBe('alpha \ufdd0\uffff alpha\n');
    expect(await call('palimpsest_find_occurrences', { target_file_id: f.target, text: '\uffff' })).toMatchObject({ status: 'ok', occurrence_count: 1 });
    await restoreFixture(call, f);
  });
});
