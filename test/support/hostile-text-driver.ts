import fc from 'fast-check';
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
  type HostileCase,
  type HostileFixture,
} from '@palimpsest/application/test-support/hostile-text-calls';
import { judge, judgeDelivery } from '@palimpsest/application/test-support/hostile-text-expectations';

/**
 * The hostile-text property over a real transport: a bounded sample of (operation, string field,
 * character, position) drawn from the whole catalog, after the cases issue 11 named.
 */

export interface Delivered {
  /** The operation's result object, as the transport delivered it. */
  answer: Answer;
  /** Set when the transport itself says the server failed (HTTP 5xx, -32603, exit 1, …). */
  internal: string | null;
  /**
   * The transport could not carry the string as sent (a lone surrogate has no percent-encoding in a
   * URL): only "never internal, documented status" is checked then.
   */
  lossy?: boolean;
}

export type TransportCall = (name: string, args: Record<string, unknown>) => Promise<Delivered>;

const CASES = hostileCases(SHAPE_FIXTURE);
const named = (name: string): HostileCase => {
  const found = CASES.find((c) => slotName(c) === name);
  if (!found) throw new Error(`no hostile case ${name}`);
  return found;
};

/** The issue's reproductions first: a NUL request key, NUL edit text, NUL search and filter text. */
export const ISSUE_EXAMPLES: [HostileCase, string, number][] = [
  [named('palimpsest_submit_edits#0:client_request_id'), '\u0000', 1],
  [named('palimpsest_submit_replacement#0:client_request_id'), '\ud800', 0],
  [named('palimpsest_submit_edits#0:edits.0.replace'), '\u0000', 2],
  [named('palimpsest_submit_operations#0:operations.1.expected_text'), '\ud800', 1],
  [named('palimpsest_find_occurrences#0:text'), '\u0000', 1],
  [named('palimpsest_get_attempt_log#0:client_request_id'), '\u0000', 0],
  [named('palimpsest_change_propose#0:operations.0.replace'), '\u0000', 1],
  [named('palimpsest_submit_edits#0:intent'), '\ufffe', 1],
];

/** Unwraps answers for fixture calls, which must never fail. */
function fixtureCaller(call: TransportCall) {
  return async (name: string, args: Record<string, unknown>): Promise<Answer> => {
    const d = await call(name, args);
    if (d.internal) throw new Error(`${name} failed on the transport: ${d.internal}`);
    return d.answer;
  };
}

export async function hostileFixture(call: TransportCall): Promise<HostileFixture> {
  return createFixture(fixtureCaller(call));
}

/** Runs `examples` (default: all of ISSUE_EXAMPLES), then random cases, until `numRuns` calls in all. */
export async function assertNoInternalErrors(
  call: TransportCall,
  f: HostileFixture,
  numRuns: number,
  examples: [HostileCase, string, number][] = ISSUE_EXAMPLES,
): Promise<void> {
  const kindOf = new Map(HOSTILE_CHARS.map((h) => [h.char, h.kind]));
  await fc.assert(
    fc.asyncProperty(fc.constantFrom(...CASES), fc.constantFrom(...HOSTILE_CHARS.map((h) => h.char)), positionArb, async (c, char, at) => {
      const d = await call(c.op.name, hostileCall(c, f, char, at));
      const where = `${slotName(c)} with U+${char.charCodeAt(0).toString(16).toUpperCase()}`;
      if (d.internal) throw new Error(`${where}: ${d.internal}\n${JSON.stringify(d.answer).slice(0, 600)}`);
      const verdict = d.lossy ? judgeDelivery(c, d.answer) : judge(c, kindOf.get(char)!, d.answer);
      if (!verdict.ok) {
        throw new Error(`${where}: ${verdict.why}\n${JSON.stringify(d.answer).slice(0, 600)}`);
      }
      if (d.answer.status === 'accepted') await restoreFixture(fixtureCaller(call), f);
    }),
    { examples, numRuns: Math.max(numRuns, examples.length) },
  );
}
