import { parseHosts } from './pg-hosts';

describe('parseHosts (a DATABASE_URL naming several servers)', () => {
  it('leaves a URI with one server to pg', () => {
    expect(parseHosts('postgres://u:p@db:5432/app?sslmode=require')).toBeNull();
    expect(parseHosts('postgres:///app?host=/run/postgresql')).toBeNull();
  });

  it('reads each server, with 5432 where none is given, and writes the URI of each', () => {
    const list = parseHosts('postgresql://u:p%40ss@primary:5433,standby,[::1]:5434/app?application_name=x')!;
    expect(list.hosts).toEqual([{ host: 'primary', port: 5433 }, { host: 'standby', port: 5432 }, { host: '::1', port: 5434 }]);
    expect(list.base).toBe('postgresql://u:p%40ss@primary:5433/app?application_name=x');
    expect(list.uriOf(list.hosts[1]!)).toBe('postgresql://u:p%40ss@standby:5432/app?application_name=x');
    expect(list.uriOf(list.hosts[2]!)).toBe('postgresql://u:p%40ss@[::1]:5434/app?application_name=x');
  });

  it('refuses an empty server in the list', () => {
    expect(() => parseHosts('postgres://u@a:1,,b:2/app')).toThrow(/empty host/);
  });
});
