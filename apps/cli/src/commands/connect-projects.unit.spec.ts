import { mkdtempSync, readdirSync, rmSync, symlinkSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { UsageError } from '../cli-errors';
import { connectUrl, parseProjects } from './connect-projects';

describe('parseProjects', () => {
  let root: string;
  beforeAll(() => {
    root = mkdtempSync(join(tmpdir(), 'palimpsest-connect-'));
    for (const d of ['a', 'b']) mkdtempSync(join(root, `${d}-`));
  });
  afterAll(() => rmSync(root, { recursive: true, force: true }));

  const dir = (name: string) => join(root, readdirSync(root).find((f) => f.startsWith(`${name}-`))!);

  it('gives stable ids: the same directories, however spelled, are the same device and projects', () => {
    const first = parseProjects([`site=${dir('a')}`, `docs=${dir('b')}`], '/');
    symlinkSync(dir('a'), join(root, 'link'));
    const again = parseProjects([`docs=${dir('b')}`, 'site=link'], root);
    expect(again.deviceId).toBe(first.deviceId);
    expect(first.deviceId).toMatch(/^dev_[0-9a-f]{32}$/);
    expect(first.projects.map(({ slug, root: r }) => ({ slug, r }))).toEqual([{ slug: 'site', r: dir('a') }, { slug: 'docs', r: dir('b') }]);
    expect(again.projects.find((p) => p.slug === 'site')!.id).toBe(first.projects[0]!.id);
    expect(parseProjects([`site=${dir('a')}`], '/').deviceId).not.toBe(first.deviceId);
  });

  it.each([
    [[], /--project <name>=<dir> is required/],
    [['site'], /expected <name>=<dir>/],
    [['=x'], /expected <name>=<dir>/],
    [['bad name=.'], /expected <name>=<dir>/],
    [['site=/nonexistent/palimpsest'], /does not exist/],
    [['site=.', 'site=..'], /given twice/],
  ])('refuses %j as a usage error', (specs, message) => {
    expect(() => parseProjects(specs, root)).toThrow(UsageError);
    expect(() => parseProjects(specs, root)).toThrow(message);
  });

  it('refuses a file where a directory is expected', () => {
    writeFileSync(join(root, 'file'), 'x');
    expect(() => parseProjects(['f=file'], root)).toThrow(/is not a directory/);
  });
});

describe('connectUrl', () => {
  it.each([
    ['http://127.0.0.1:3000', 'ws://127.0.0.1:3000/v1/executors/connect'],
    ['https://gw.example.com/', 'wss://gw.example.com/v1/executors/connect'],
    ['https://gw.example.com/base', 'wss://gw.example.com/base/v1/executors/connect'],
    ['wss://gw.example.com/v1/executors/connect', 'wss://gw.example.com/v1/executors/connect'],
  ])('%s → %s', (gateway, url) => {
    expect(connectUrl(gateway, '/v1/executors/connect')).toBe(url);
  });

  it.each(['127.0.0.1:3000', 'ftp://x', 'not a url'])('refuses %s', (gateway) => {
    expect(() => connectUrl(gateway, '/v1/executors/connect')).toThrow(UsageError);
  });
});
