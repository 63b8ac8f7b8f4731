import { answerErrors } from '@palimpsest/protocol/answer-guard';
import { OPENAPI_EXAMPLES } from './openapi-examples';

/**
 * The answers of the recorded example run (real answers of every operation, successes and refusals)
 * are what the CLI reads through a gateway: each validates against its operation's answer schema.
 */
describe('the recorded example answers', () => {
  it('each validates against its operation\'s answer schema', () => {
    const runs = [
      ...Object.entries(OPENAPI_EXAMPLES.operations).map(([operation, run]) => ({ operation, result: run.result })),
      ...Object.values(OPENAPI_EXAMPLES.alternates).map((run) => ({ operation: run.operation, result: run.result })),
    ];
    expect(runs.length).toBeGreaterThan(40);
    for (const { operation, result } of runs) expect({ operation, errors: answerErrors(operation, result) }).toEqual({ operation, errors: null });
  });
});
