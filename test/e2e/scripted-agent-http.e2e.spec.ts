import { OPERATION_ROUTES, concretePath, pathArgumentOf } from '@palimpsest/api/routes/route-table';
import { SCRIPT, runScript, type AgentTransport, type Answer } from '../../bench/scripted-agent.script';
import type { HttpClient } from '../support/http-client';
import { useGateway } from '../support/http-server';

const backend = process.env.DATABASE_URL ? 'postgres' : 'pglite';

/** The agent's own calls go to each operation's route; next actions are followed by their method, path and body alone. */
function httpTransport(http: () => HttpClient, seen: Answer[]): AgentTransport {
  const answer = (r: { status: number; body: any }) => {
    seen.push(r.body);
    return { ...r.body, http_status: r.status };
  };
  return {
    async call(operation, args) {
      const route = OPERATION_ROUTES.find((r) => r.operation === operation)!;
      const inPath = pathArgumentOf(route);
      const { [inPath ?? '']: id, ...rest } = args;
      const path = concretePath(route.path, id as string | undefined);
      if (route.method === 'GET') return answer(await http().get(path, rest as Record<string, string>));
      return answer(await http().post(path, rest));
    },
    nextActions: (a) => a.error?.next_actions ?? [],
    async follow(a, index) {
      const action = a.error.next_actions[index];
      return answer(await http().request(action.method, action.path, action.body === undefined ? {} : { body: action.body }));
    },
  };
}

describe(`the scripted agent over real HTTP, following error.next_actions on ${backend}`, () => {
  const gw = useGateway('read,write,operator,auditor');

  it('lands all 50 edits as intended at no more than 1.1 calls per edit, each retry sent by method, path and body', async () => {
    const seen: Answer[] = [];
    const run = await runScript(httpTransport(() => gw.http, seen), 'follow_next_actions');
    expect(run.problems).toEqual([]);
    expect(run.edits).toBe(SCRIPT.length);
    expect(run.calls).toBe(55);
    expect(run.callsPerEdit).toBeLessThanOrEqual(1.1);
    const rejected = seen.filter((b) => b.status === 'rejected');
    expect(rejected).toHaveLength(5);
    for (const b of rejected) {
      // One list on every transport: HTTP adds method, path (and a POST's body) to the operation's own.
      expect(b.error.next_actions.map(({ method: _m, path: _p, body: _b, ...own }: Record<string, unknown>) => own)).toEqual(b.next_actions);
      expect(b.error.next_actions.every((a: Record<string, unknown>) => typeof a.method === 'string' && typeof a.path === 'string')).toBe(true);
    }
  });
});
