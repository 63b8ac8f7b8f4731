import { SessionRegistry } from './mcp-sessions';

class Fake {
  closed = 0;
  async close() {
    this.closed++;
  }
}

function registry(maxSessions = 2, idleMs = 1000) {
  const clock = { t: 0 };
  return { clock, sessions: new SessionRegistry<Fake>({ maxSessions, idleMs }, () => clock.t) };
}

describe('SessionRegistry (MCP sessions on one gateway)', () => {
  it('finds a session for the token that opened it only', () => {
    const { sessions } = registry();
    const value = new Fake();
    sessions.add('s-1', 'token-a', value)!;
    expect(sessions.lookup('s-1', 'token-a')).toMatchObject({ kind: 'found', entry: { id: 's-1', value } });
    expect(sessions.lookup('s-1', 'token-b')).toEqual({ kind: 'foreign' });
    expect(sessions.lookup('s-2', 'token-a')).toEqual({ kind: 'unknown' });
  });

  it('closes a session idle for idleMs, never one with a request or a stream open', async () => {
    const { clock, sessions } = registry(5, 1000);
    const idle = new Fake();
    const busy = new Fake();
    sessions.add('idle', 'a', idle);
    const release = sessions.use(sessions.add('busy', 'a', busy)!);
    clock.t = 999;
    expect(await sessions.sweep()).toBe(0);
    clock.t = 5000;
    expect(await sessions.sweep()).toBe(1);
    expect([idle.closed, busy.closed]).toEqual([1, 0]);
    expect(sessions.lookup('idle', 'a')).toEqual({ kind: 'unknown' });
    release();
    release(); // once only
    clock.t = 5999;
    expect(await sessions.sweep()).toBe(0); // its idle time counts from the end of its last use
    clock.t = 6000;
    expect(await sessions.sweep()).toBe(1);
    expect(busy.closed).toBe(1);
  });

  it('has room for maxSessions, making room by closing idle ones first', async () => {
    const { clock, sessions } = registry(2, 1000);
    sessions.add('s-1', 'a', new Fake());
    expect(await sessions.hasRoom()).toBe(true);
    sessions.use(sessions.add('s-2', 'a', new Fake())!);
    expect(await sessions.hasRoom()).toBe(false);
    expect(sessions.add('s-3', 'a', new Fake())).toBeNull(); // the cap holds at the add itself
    clock.t = 1000;
    expect(await sessions.hasRoom()).toBe(true); // s-1 was idle and is closed
    expect(sessions.size).toBe(1);
  });

  it('closes everything on shutdown', async () => {
    const { sessions } = registry();
    const values = [new Fake(), new Fake()];
    values.forEach((v, i) => sessions.use(sessions.add(`s-${i}`, 'a', v)!));
    expect(sessions.all().map((e) => e.id)).toEqual(['s-0', 's-1']);
    await sessions.closeAll();
    expect(values.map((v) => v.closed)).toEqual([1, 1]);
    expect(sessions.size).toBe(0);
  });
});
